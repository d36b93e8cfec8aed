"""The output root's OpenAPI document (openapi/<contract>.errors.yaml) against openapi-spec-validator (OpenAPI 3.1).

The validator walks a document from its paths, so a components library is
also validated as an API document would use it: one that references every
response, schema and header of it from a folder holding both, with the
references resolved. For the reference contract, the hand-written sample API
document (tests/openapi/sample-api.yaml) is validated the same way. Every
example the responses show validates against its schema (Draft 2020-12, the
document's jsonSchemaDialect), and the package reads each problem example
back as the envelope example it renders.
"""

import json
import os
import shutil
from typing import Any, Dict, List

import pytest
import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from env import build, pkg, root

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
SAMPLE = os.path.join(REPO, "tests", "openapi", "sample-api.yaml")
FILE = f"{pkg.CONTRACT_NAME}.errors.yaml"
PATH = os.path.join(root, "openapi", FILE)

with open(PATH, encoding="utf-8") as f:
    document: Dict[str, Any] = yaml.safe_load(f)


def check(path: str) -> None:
    spec, base = read_from_filename(path)
    validate(spec, base_uri=base)


def beside_document(name: str, api: Dict[str, Any]) -> str:
    """Writes api as <name>.yaml into a scratch folder holding a copy of the generated document, and returns its path."""
    folder = os.path.join(build, "openapi", name)
    os.makedirs(folder, exist_ok=True)
    shutil.copyfile(PATH, os.path.join(folder, FILE))
    out = os.path.join(folder, "api.yaml")
    with open(out, "w", encoding="utf-8") as f:
        yaml.safe_dump(api, f, sort_keys=False)
    return out


def referencing(responses: List[str], schemas: List[str], headers: List[str]) -> Dict[str, Any]:
    """An API document with one operation per response, schema and header of the generated document, each by reference."""
    paths: Dict[str, Any] = {}
    for name in responses:
        ref = {"$ref": f"{FILE}#/components/responses/{name}"}
        paths[f"/responses/{name}"] = {"get": {"operationId": f"response{name}", "responses": {"200": {"description": "OK"}, "default": ref}}}
    for name in schemas:
        content = {"application/json": {"schema": {"$ref": f"{FILE}#/components/schemas/{name}"}}}
        paths[f"/schemas/{name}"] = {"get": {"operationId": f"schema{name}", "responses": {"default": {"description": name, "content": content}}}}
    for name in headers:
        header = {name: {"$ref": f"{FILE}#/components/headers/{name}"}}
        paths[f"/headers/{name}"] = {"get": {"operationId": f"header{name.replace('-', '')}", "responses": {"default": {"description": name, "headers": header}}}}
    return {"openapi": "3.1.0", "info": {"title": "every component", "version": "1"}, "paths": paths}


def components(kind: str) -> List[str]:
    return list(document["components"].get(kind, {}))


def test_document_validates() -> None:
    assert document["openapi"] == "3.1.0"
    check(PATH)


def test_every_component_resolves_from_an_api_document() -> None:
    responses, schemas, headers = components("responses"), components("schemas"), components("headers")
    assert responses and schemas and headers
    check(beside_document("every-component", referencing(responses, schemas, headers)))


def test_a_missing_component_fails_validation() -> None:
    # The reference is followed: a name the document lacks is an error, so
    # the tests above would notice one.
    with pytest.raises(Exception):
        check(beside_document("missing-component", referencing(["NoSuchResponse"], [], [])))


def test_sample_api_document() -> None:
    if pkg.CONTRACT_NAME != "agent-error":
        pytest.skip("the sample API document is written for the agent-error contract")
    folder = os.path.join(build, "openapi", "sample")
    os.makedirs(folder, exist_ok=True)
    shutil.copyfile(PATH, os.path.join(folder, FILE))
    shutil.copyfile(SAMPLE, os.path.join(folder, "sample-api.yaml"))
    check(os.path.join(folder, "sample-api.yaml"))


def examples() -> List[Any]:
    out = []
    for status, response in document["components"]["responses"].items():
        for media, content in response["content"].items():
            schema = content["schema"]["$ref"].rsplit("/", 1)[1]
            for name, example in content["examples"].items():
                out.append(pytest.param(schema, example["value"], id=f"{status} {media} {name}"))
    return out


@pytest.mark.parametrize("schema,value", examples())
def test_example_validates(schema: str, value: Any) -> None:
    validator = Draft202012Validator(document["components"]["schemas"][schema])
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]
    assert not errors, errors


def pairs() -> List[Any]:
    out = []
    for status, response in document["components"]["responses"].items():
        problems = response["content"]["application/problem+json"]["examples"]
        for name, example in response["content"]["application/json"]["examples"].items():
            out.append(pytest.param(example["value"], problems[name]["value"], id=f"{status} {name}"))
    return out


PROBLEM_MEMBERS = ("type", "title", "status", "detail", "instance")


@pytest.mark.parametrize("envelope,problem", pairs())
def test_problem_example_reads_back_as_the_envelope(envelope: Any, problem: Any) -> None:
    """The package reads each problem example back as it reads the envelope example beside it (less a field named like a problem member, which a problem document cannot carry): every reader sanitizes alike."""
    got = pkg.from_http_response(problem["status"], {"Content-Type": "application/problem+json"}, json.dumps(problem).encode())
    lost = [m["leaf"]["name"] for m in pkg.LAYOUT["members"] if "leaf" in m and m["leaf"]["source"] == "field" and m["leaf"]["name"] in PROBLEM_MEMBERS]
    want = {k: v for k, v in pkg.to_dict(pkg.from_dict(envelope)).items() if k not in lost}
    assert {k: v for k, v in pkg.to_dict(got).items() if k not in lost} == want
    assert problem["status"] == pkg.http_status(got)
