"""DRF authentication by ``Authorization: Token <key>`` for people's and bots' API tokens."""

from rest_framework import authentication, exceptions

from workspaces.tokens import TokenExpired, token_user


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if not header or header[0].lower() not in ("token", "bearer"):
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Send the header as 'Authorization: Token <key>'.")
        try:
            user = token_user(header[1])
        except TokenExpired as expired:
            raise exceptions.AuthenticationFailed(expired.sentence) from None
        if user is None:
            raise exceptions.AuthenticationFailed("This API token is unknown or was revoked; create a new one.")
        return user, header[1]

    def authenticate_header(self, request):
        return self.keyword
