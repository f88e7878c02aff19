"""A Hub on 127.0.0.1 that answers the endpoints huggingface_hub calls to publish a dataset: who
the token is, create a repository, validate the card's YAML, ask each file's upload mode, commit
files, list refs, tag a commit; and those `datasets.load_dataset` calls to read one back: the
repository's info at a revision, its file tree, the facts of given paths, and each file. It
keeps every commit's files, so a test can read back what the client really sent, revision by
revision. Files are taken inline ("regular" upload mode), as the Hub allows; nothing here knows
the factory."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TOKEN = "hf_local_test_token"


class Repo:
    def __init__(self) -> None:
        self.commits: dict[str, dict[str, bytes]] = {}  # oid → every file at that commit
        self.main: str | None = None
        self.tags: dict[str, str] = {}  # tag → oid

    def files(self, revision: str = "main") -> dict[str, bytes]:
        oid = self.main if revision == "main" else self.tags.get(revision, revision)
        return dict(self.commits.get(oid, {}))


class FakeHub:
    def __init__(self) -> None:
        self.repos: dict[str, Repo] = {}
        self.requests: list[tuple[str, str]] = []  # (method, path) in the order they came
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                hub.answer(self, "GET")

            def do_POST(self):
                hub.answer(self, "POST")

            def do_HEAD(self):
                hub.answer(self, "HEAD")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def save(self, repo_id: str, revision: str, folder: Path) -> Path:
        """Write the files of a revision as received, for datasets.load_dataset to read."""
        for name, data in self.repos[repo_id].files(revision).items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        return folder

    def answer(self, request: BaseHTTPRequestHandler, method: str) -> None:
        path = request.path.split("?", 1)[0]
        self.requests.append((method, path))
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self.send(request, 401, {"error": "Invalid credentials in Authorization header"})
        routes = [
            ("GET", r"/api/whoami-v2", self.whoami),
            ("POST", r"/api/repos/create", self.create),
            ("POST", r"/api/validate-yaml", lambda body: (200, {"errors": [], "warnings": []})),
            ("POST", r"/api/datasets/(?P<repo>[^/]+/[^/]+)/preupload/(?P<rev>[^/]+)", self.preupload),
            ("POST", r"/api/datasets/(?P<repo>[^/]+/[^/]+)/commit/(?P<rev>[^/]+)", self.commit),
            ("GET", r"/api/datasets/(?P<repo>[^/]+/[^/]+)/refs", self.refs),
            ("POST", r"/api/datasets/(?P<repo>[^/]+/[^/]+)/tag/(?P<rev>[^/]+)", self.tag),
            ("GET", r"/api/datasets/(?P<repo>[^/]+/[^/]+)(?:/revision/(?P<rev>[^/]+))?", self.info),
            ("GET", r"/api/datasets/(?P<repo>[^/]+/[^/]+)/tree/(?P<rev>[^/]+)(?:/(?P<folder>.+))?", self.tree),
            ("POST", r"/api/datasets/(?P<repo>[^/]+/[^/]+)/paths-info/(?P<rev>[^/]+)", self.paths_info),
        ]
        resolved = re.fullmatch(r"/datasets/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<name>.+)", path)
        if resolved and method in ("GET", "HEAD"):
            return self.download(request, method, **resolved.groupdict())
        query = request.path.partition("?")[2]
        for verb, pattern, handler in routes:
            match = re.fullmatch(pattern, path)
            if verb == method and match:
                found = {k: v for k, v in match.groupdict().items() if v is not None}
                status, payload = handler(body + (b"&" + query.encode() if query else b""), **found)
                return self.send(request, status, payload)
        self.send(request, 404, {"error": f"no route {method} {path}"})

    def _revision(self, repo: str, rev: str) -> tuple[str, dict[str, bytes]] | None:
        hub_repo = self.repos.get(repo)
        if hub_repo is None:
            return None
        oid = hub_repo.main if rev == "main" else hub_repo.tags.get(rev, rev)
        return (oid, hub_repo.commits[oid]) if oid in hub_repo.commits else None

    @staticmethod
    def _entry(name: str, data: bytes) -> dict:
        return {"type": "file", "path": name, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}

    def info(self, body: bytes, repo: str, rev: str = "main") -> tuple[int, dict]:
        found = self._revision(repo, rev)
        if found is None:
            return 404, {"error": "Repository not found"}
        oid, files = found
        return 200, {"id": repo, "sha": oid, "private": False, "disabled": False, "gated": False,
                     "siblings": [{"rfilename": name} for name in sorted(files)], "tags": [], "downloads": 0,
                     "lastModified": "2025-06-13T09:30:00.000Z", "createdAt": "2025-06-13T09:30:00.000Z"}

    def tree(self, body: bytes, repo: str, rev: str, folder: str = "") -> tuple[int, dict]:
        found = self._revision(repo, rev)
        if found is None:
            return 404, {"error": "Repository not found"}
        recursive = b"recursive=true" in body.lower() or b"recursive=1" in body
        prefix = folder.strip("/") + "/" if folder.strip("/") else ""
        entries, folders = [], set()
        for name, data in sorted(found[1].items()):
            if not name.startswith(prefix):
                continue
            rest = name[len(prefix):]
            if "/" in rest and not recursive:
                folders.add(prefix + rest.split("/", 1)[0])
                continue
            if recursive:
                parts = rest.split("/")[:-1]
                folders |= {prefix + "/".join(parts[: k + 1]) for k in range(len(parts))}
            entries.append(self._entry(name, data))
        return 200, [{"type": "directory", "path": f, "oid": hashlib.sha1(f.encode()).hexdigest()}
                     for f in sorted(folders)] + entries

    def paths_info(self, body: bytes, repo: str, rev: str) -> tuple[int, dict]:
        from urllib.parse import parse_qs

        found = self._revision(repo, rev)
        if found is None:
            return 404, {"error": "Repository not found"}
        text = body.decode()
        asked = json.loads(text.split("&")[0])["paths"] if text.startswith("{") else parse_qs(text).get("paths", [])
        files = found[1]
        out = [self._entry(p, files[p]) for p in asked if p in files]
        out += [{"type": "directory", "path": p, "oid": hashlib.sha1(p.encode()).hexdigest()} for p in asked
                if p not in files and any(n.startswith(p.rstrip("/") + "/") for n in files)]
        return 200, out

    def download(self, request: BaseHTTPRequestHandler, method: str, repo: str, rev: str, name: str) -> None:
        from urllib.parse import unquote

        found = self._revision(repo, unquote(rev))
        data = found[1].get(unquote(name)) if found else None
        if data is None:
            request.send_response(404)
            request.send_header("X-Error-Code", "EntryNotFound" if found else "RepoNotFound")
            request.send_header("Content-Length", "0")
            request.end_headers()
            return
        request.send_response(200)
        request.send_header("Content-Type", "application/octet-stream")
        request.send_header("Content-Length", str(len(data)))
        request.send_header("ETag", f'"{hashlib.sha1(data).hexdigest()}"')
        request.send_header("X-Repo-Commit", found[0])
        request.end_headers()
        if method == "GET":
            request.wfile.write(data)

    @staticmethod
    def send(request: BaseHTTPRequestHandler, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        request.send_response(status)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        request.wfile.write(data)

    def whoami(self, body: bytes) -> tuple[int, dict]:
        return 200, {"type": "user", "name": "me", "orgs": [], "auth": {"type": "access_token"}}

    def create(self, body: bytes) -> tuple[int, dict]:
        asked = json.loads(body)
        repo_id = f"{asked.get('organization') or 'me'}/{asked['name']}"
        url = f"{self.url}/datasets/{repo_id}"
        if repo_id in self.repos:
            return 409, {"error": "You already created this dataset repo", "url": url}
        self.repos[repo_id] = Repo()
        return 200, {"url": url}

    def preupload(self, body: bytes, repo: str, rev: str) -> tuple[int, dict]:
        if repo not in self.repos:
            return 404, {"error": "Repository not found"}
        files = json.loads(body)["files"]
        return 200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]}

    def commit(self, body: bytes, repo: str, rev: str) -> tuple[int, dict]:
        hub_repo = self.repos.get(repo)
        if hub_repo is None:
            return 404, {"error": "Repository not found"}
        files = hub_repo.files("main")
        for line in body.splitlines():
            item = json.loads(line)
            if item["key"] == "file":
                files[item["value"]["path"]] = base64.b64decode(item["value"]["content"])
        oid = hashlib.sha1(json.dumps(sorted((k, hashlib.sha256(v).hexdigest()) for k, v in files.items())).encode()
                           + str(len(hub_repo.commits)).encode()).hexdigest()
        hub_repo.commits[oid] = files
        hub_repo.main = oid
        return 200, {"success": True, "commitOid": oid, "commitUrl": f"{self.url}/datasets/{repo}/commit/{oid}"}

    def refs(self, body: bytes, repo: str) -> tuple[int, dict]:
        hub_repo = self.repos.get(repo)
        if hub_repo is None:
            return 404, {"error": "Repository not found"}
        branches = [{"name": "main", "ref": "refs/heads/main", "targetCommit": hub_repo.main}] if hub_repo.main else []
        tags = [{"name": t, "ref": f"refs/tags/{t}", "targetCommit": oid} for t, oid in hub_repo.tags.items()]
        return 200, {"branches": branches, "converts": [], "tags": tags}

    def tag(self, body: bytes, repo: str, rev: str) -> tuple[int, dict]:
        hub_repo = self.repos.get(repo)
        if hub_repo is None or rev not in hub_repo.commits:
            return 404, {"error": "Revision not found"}
        name = json.loads(body)["tag"]
        if name in hub_repo.tags:
            return 409, {"error": f"Tag {name} already exists"}
        hub_repo.tags[name] = rev
        return 200, {}
