"""The API's docs pages: Swagger UI at /api/v1/docs/, ReDoc at /api/v1/redoc/.

Both run under the app's own CSP (``CONTENT_SECURITY_POLICY``: scripts and styles from 'self'
only), so everything they load is ours: the UIs come from drf-spectacular-sidecar's static
files, no web fonts are fetched, and no page has an inline script or an inline ``<style>``.
Swagger UI's start-up script is served as a file by the split view (``?script``).

ReDoc draws its styles at run time (styled-components and its bundled CSS add ``<style>``
elements), which ``style-src 'self'`` refuses: without them ReDoc stops with an error. Rather
than allowing inline styles, the ReDoc page alone adds a per-response nonce to ``style-src``,
and ``static/api_docs/redoc.js`` (its only script besides the bundle) gives it to the styles
ReDoc inserts. That script also turns off ReDoc's search (it runs in a ``blob:`` worker, which
``script-src 'self'`` refuses) and keeps ReDoc's menu from fetching Redocly's logo from
cdn.redoc.ly.
"""

from __future__ import annotations

from csp.constants import NONCE
from csp.decorators import csp_update
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView


class SwaggerDocsView(SpectacularSwaggerSplitView):
    url_name = "api-schema"
    template_name = "api_docs/swagger_ui.html"


class RedocDocsView(SpectacularRedocView):
    url_name = "api-schema"
    template_name = "api_docs/redoc.html"


# The nonce is made only for a response that uses it (django-csp adds it when the template
# reads request.csp_nonce); every other directive stays the app's.
redoc_view = csp_update({"style-src": [NONCE]})(RedocDocsView.as_view())
