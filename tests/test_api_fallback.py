"""Paths no view answers still get the API's error shape."""

import pytest
from django.test import Client


@pytest.mark.django_db(databases="__all__")
def test_unknown_api_path_is_json_404():
    response = Client().get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found" and "/api/v1/docs/" in response.json()["detail"]
