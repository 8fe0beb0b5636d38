"""Every operation of the schema has a summary (issue 42, F): generated clients and the docs
name each method by it."""

from drf_spectacular.generators import SchemaGenerator


def test_every_operation_has_a_summary_of_its_own(db):
    schema = SchemaGenerator().get_schema(public=True)
    operations = [(method, path, op) for path, ops in schema["paths"].items() for method, op in ops.items()]
    assert len(operations) >= 31
    missing = [f"{method.upper()} {path}" for method, path, op in operations if not op.get("summary", "").strip()]
    assert missing == []
    summaries = [op["summary"] for _method, _path, op in operations]
    assert len(set(summaries)) == len(summaries), "two operations share a summary"
