"""The referee with one extra route, a bare JSON echo, so that the HTTP benchmark can measure
`/v1/adjudicate` against the cheapest possible JSON round trip served by the same gunicorn
configuration in the same run.  Serve with: gunicorn -c gunicorn.conf.py 'benchmarks.wsgi:app'."""
from __future__ import annotations

import json

from flask import Response, request

from api import create_app

app = create_app()


@app.post("/bench/echo")
def echo():
    """Parse the JSON body and send it back as JSON: the HTTP and JSON work of a request, no rules."""
    return Response(json.dumps(request.get_json()), mimetype="application/json")
