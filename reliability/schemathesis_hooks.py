"""Hooks for the schema check's schemathesis runs (checks_schema.py sets SCHEMATHESIS_HOOKS).

Schemathesis percent-decodes a generated path value before it encodes it ("to keep quoting
idempotent for already-escaped inputs", its transport/serialization.py). A generated identifier
holding the text "%10" therefore reached the store as the control character U+0010, which the
document forbids in identifiers and the store refuses with 400, and schemathesis reported a valid
request refused (ST202; seen once in four runs, on decideRefundRequest's requestId). Escaping "%"
first makes the value arrive as generated.
"""

import schemathesis


@schemathesis.hook
def map_path_parameters(context, path_parameters):
    if not path_parameters:
        return path_parameters
    return {name: value.replace("%", "%25") if isinstance(value, str) else value
            for name, value in path_parameters.items()}
