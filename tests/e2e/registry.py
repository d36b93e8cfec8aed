"""The local package registries of tests/e2e/run.sh: one HTTP server on
127.0.0.1 (a port the system picks, written to --port-file) that takes
releases the way each language's own publishing tool sends them and serves
them to that language's installer by version:

  /npm/    an npm registry: `npm publish --registry` PUTs a package
           document with the tarball attached; `npm install` GETs the
           packument (every version, its dist.tarball, dist.integrity and
           dist.shasum as npm computed them) and the tarballs.
  /pypi/   twine's upload API (a multipart POST per file, checked against
           its sha256_digest) and a PEP 503 simple index at /pypi/simple/
           for `pip install --index-url`.
  /cargo/  a sparse cargo registry: config.json, the index files cargo
           reads, cargo's publish endpoint (PUT /cargo/api/v1/crates/new,
           which writes the index entry, as a real registry does) and
           the .crate downloads.

Go needs no server: run.sh writes a file GOPROXY with tests/go/cmd/modproxy.

Every write needs the token run.sh configures; nothing is cached by the
clients (no ETag, no Last-Modified), so a new release is seen at once.
State lives in memory and under --root (for a failed run's post-mortem).
Standard library only: it runs under any python3 3.9+.

Usage: python3 registry.py --root DIR --port-file FILE
"""

import argparse
import base64
import email.parser
import email.policy
import hashlib
import html
import json
import os
import re
import struct
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

TOKEN = "e2e-token"
LOCK = threading.Lock()
NPM: Dict[str, Dict[str, Any]] = {}  # name -> packument
CARGO: Dict[str, List[Dict[str, Any]]] = {}  # lowercase name -> index entries
PYPI: Dict[str, List[Tuple[str, str, str]]] = {}  # normalized name -> (file, sha256, requires_python)
ROOT = ""


def pep503(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def index_path(name: str) -> str:
    """Where cargo's sparse protocol looks for a crate's index file."""
    n = name.lower()
    if len(n) <= 2:
        return f"{len(n)}/{n}"
    if len(n) == 3:
        return f"3/{n[0]}/{n}"
    return f"{n[0:2]}/{n[2:4]}/{n}"


def save(rel: str, data: bytes) -> None:
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def load(rel: str) -> Optional[bytes]:
    path = os.path.realpath(os.path.join(ROOT, rel))
    if not path.startswith(ROOT + os.sep):  # names come from requests: nothing outside ROOT is served
        return None
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        with open(os.path.join(ROOT, "access.log"), "a", encoding="utf-8") as f:
            f.write("%s %s\n" % (self.log_date_time_string(), format % args))

    def reply(self, code: int, body: bytes, ctype: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def json(self, code: int, value: Any) -> None:
        self.reply(code, json.dumps(value).encode())

    def error(self, code: int, message: str) -> None:
        # npm shows "error", cargo "errors[].detail", twine the status line.
        self.json(code, {"error": message, "errors": [{"detail": message}]})

    def body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def authorized(self) -> bool:
        auth = self.headers.get("Authorization") or ""
        if auth in (TOKEN, "Bearer " + TOKEN):  # cargo sends the token bare, npm as a bearer
            return True
        if auth.startswith("Basic "):  # twine
            return base64.b64decode(auth[6:]).decode().split(":", 1)[-1] == TOKEN
        return False

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        path = urllib.parse.urlsplit(self.path).path
        host = "http://%s:%d" % self.server.server_address[:2]
        if path.startswith("/npm/"):
            rest = urllib.parse.unquote(path[len("/npm/"):])
            if "/-/" in rest:
                data = load("npm/tarballs/" + os.path.basename(rest))
                return self.reply(200, data, "application/octet-stream") if data is not None else self.error(404, "no such tarball")
            with LOCK:
                doc = NPM.get(rest)
                return self.json(200, doc) if doc else self.error(404, "no such package")
        if path == "/cargo/config.json":
            return self.json(200, {"dl": host + "/cargo/api/v1/crates", "api": host + "/cargo"})
        m = re.fullmatch(r"/cargo/api/v1/crates/([^/]+)/([^/]+)/download", path)
        if m:
            data = load(f"cargo/crates/{m.group(1)}-{m.group(2)}.crate")
            return self.reply(200, data, "application/octet-stream") if data is not None else self.error(404, "no such crate")
        if path.startswith("/cargo/"):
            name = path.rsplit("/", 1)[-1].lower()
            with LOCK:
                entries = CARGO.get(name)
                if not entries or path[len("/cargo/"):] != index_path(name):
                    return self.error(404, "no such crate")
                return self.reply(200, "".join(json.dumps(e) + "\n" for e in entries).encode(), "text/plain")
        if path == "/pypi/simple/":
            with LOCK:
                links = "".join(f'<a href="{n}/">{n}</a>\n' for n in sorted(PYPI))
            return self.reply(200, f"<!DOCTYPE html>\n<html><body>\n{links}</body></html>\n".encode(), "text/html")
        m = re.fullmatch(r"/pypi/simple/([^/]+)/", path)
        if m:
            with LOCK:
                files = PYPI.get(pep503(m.group(1)))
                if not files:
                    return self.error(404, "no such project")
                links = "".join(
                    f'<a href="../../files/{f}#sha256={h}" data-requires-python="{html.escape(rp)}">{f}</a>\n' for f, h, rp in files
                )
            return self.reply(200, f"<!DOCTYPE html>\n<html><body>\n{links}</body></html>\n".encode(), "text/html")
        m = re.fullmatch(r"/pypi/files/([^/]+)", path)
        if m:
            data = load("pypi/files/" + m.group(1))
            return self.reply(200, data, "application/octet-stream") if data is not None else self.error(404, "no such file")
        self.error(404, "not found")

    def do_PUT(self) -> None:
        path = urllib.parse.urlsplit(self.path).path
        if not self.authorized():
            return self.error(401, "a token is required")
        if path.startswith("/npm/"):
            return self.npm_publish(urllib.parse.unquote(path[len("/npm/"):]))
        if path == "/cargo/api/v1/crates/new":
            return self.cargo_publish()
        self.error(404, "not found")

    def do_POST(self) -> None:
        if not self.authorized():
            return self.error(401, "a token is required")
        if urllib.parse.urlsplit(self.path).path in ("/pypi", "/pypi/"):
            return self.pypi_upload()
        self.error(404, "not found")

    def npm_publish(self, name: str) -> None:
        doc = json.loads(self.body())
        if doc.get("name") != name:
            return self.error(400, f"the document names {doc.get('name')!r}, the URL {name!r}")
        with LOCK:
            have = NPM.setdefault(name, {"name": name, "versions": {}, "dist-tags": {}})
            for version, manifest in doc.get("versions", {}).items():
                if version in have["versions"]:
                    return self.error(403, f"{name}@{version} is already published")
                tarball = os.path.basename(urllib.parse.urlsplit(manifest["dist"]["tarball"]).path)
                attachment = next(iter(doc["_attachments"].values()))
                data = base64.b64decode(attachment["data"])
                if hashlib.sha1(data).hexdigest() != manifest["dist"]["shasum"]:
                    return self.error(400, "the tarball does not match its shasum")
                save("npm/tarballs/" + tarball, data)
                have["versions"][version] = manifest
            have["dist-tags"].update(doc.get("dist-tags", {}))
            save("npm/" + name.replace("/", "%2f") + ".json", json.dumps(have, indent=1).encode())
        self.json(201, {"ok": True})

    def cargo_publish(self) -> None:
        data = self.body()
        (n,) = struct.unpack_from("<I", data, 0)
        meta = json.loads(data[4 : 4 + n])
        (m,) = struct.unpack_from("<I", data, 4 + n)
        crate = data[8 + n : 8 + n + m]
        name, version = meta["name"], meta["vers"]
        deps = []
        for d in meta["deps"]:
            dep = {
                "name": d.get("explicit_name_in_toml") or d["name"],
                "req": d["version_req"],
                "features": d["features"],
                "optional": d["optional"],
                "default_features": d["default_features"],
                "target": d["target"],
                "kind": d["kind"],
            }
            if d.get("explicit_name_in_toml"):
                dep["package"] = d["name"]
            if d.get("registry"):  # absent: this registry
                dep["registry"] = d["registry"]
            deps.append(dep)
        # Features naming dep: or weak (?/) dependencies are version 2 of
        # the index format, in features2.
        new = lambda vs: any(v.startswith("dep:") or "?/" in v for v in vs)  # noqa: E731
        features = {k: v for k, v in meta["features"].items() if not new(v)}
        features2 = {k: v for k, v in meta["features"].items() if new(v)}
        entry: Dict[str, Any] = {
            "name": name,
            "vers": version,
            "deps": deps,
            "cksum": hashlib.sha256(crate).hexdigest(),
            "features": features,
            "yanked": False,
            "links": meta.get("links"),
            "rust_version": meta.get("rust_version"),
        }
        if features2:
            entry["features2"], entry["v"] = features2, 2
        with LOCK:
            entries = CARGO.setdefault(name.lower(), [])
            if any(e["vers"] == version for e in entries):
                return self.error(400, f"crate version `{version}` is already uploaded")
            save(f"cargo/crates/{name}-{version}.crate", crate)
            entries.append(entry)
            save("cargo/index/" + index_path(name), "".join(json.dumps(e) + "\n" for e in entries).encode())
        self.json(200, {"warnings": {"invalid_categories": [], "invalid_badges": [], "other": []}})

    def pypi_upload(self) -> None:
        head = b"Content-Type: " + self.headers["Content-Type"].encode() + b"\r\n\r\n"
        msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + self.body())
        fields: Dict[str, str] = {}
        content: Optional[Tuple[str, bytes]] = None
        for part in msg.iter_parts():
            key = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            if key == "content":
                content = (os.path.basename(part.get_filename() or ""), payload)
            elif isinstance(key, str):
                fields[key] = payload.decode()
        if fields.get(":action") != "file_upload" or content is None or not content[0]:
            return self.error(400, "expected a file_upload with content")
        filename, data = content
        digest = hashlib.sha256(data).hexdigest()
        if digest != fields.get("sha256_digest"):
            return self.error(400, "the file does not match its sha256_digest")
        project = pep503(fields["name"])
        with LOCK:
            files = PYPI.setdefault(project, [])
            if any(f == filename for f, _, _ in files):
                return self.error(400, f"{filename} already exists")
            save("pypi/files/" + filename, data)
            files.append((filename, digest, fields.get("requires_python", "")))
        self.reply(200, b"OK", "text/plain")


def main() -> None:
    global ROOT
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port-file", required=True)
    args = ap.parse_args()
    ROOT = os.path.realpath(args.root)
    os.makedirs(ROOT, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)  # run.sh waits for the file: never half written
    sys.stdout.close()
    server.serve_forever()


if __name__ == "__main__":
    main()
