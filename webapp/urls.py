from django.contrib.auth import views as auth_views
from django.urls import path

from webapp import views

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(template_name="webapp/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.workspace_picker, name="home"),
]
