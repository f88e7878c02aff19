"""The persistent call cache: one SQLite file, shared by threads (and by a resumed process).

Only complete, readable answers are stored: the client never puts an error, an unreadable
body, an empty answer or a truncated one (finish_reason "length") here, so a rerun asks
those again instead of replaying them forever. Rows are committed one by one, so a killed
run keeps every answer it got.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from factory.records import content_hash


def call_key(model: str, endpoint: str, body: dict[str, Any], trial: int) -> str:
    """The identity of a call: model, endpoint, the request (messages, tools, settings) and
    the trial or sample index (so repeated samples of one prompt are different calls)."""
    return content_hash([model, endpoint, body, trial], 32)


class CallCache:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")
        self.db.commit()

    def get(self, key: str) -> dict[str, Any] | None:
        with self.lock:
            row = self.db.execute("SELECT reply FROM calls WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, reply: dict[str, Any]) -> None:
        data = json.dumps(reply, ensure_ascii=False, sort_keys=True)
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO calls VALUES (?, ?)", (key, data))
            self.db.commit()

    def __len__(self) -> int:
        with self.lock:
            return self.db.execute("SELECT COUNT(*) FROM calls").fetchone()[0]

    def close(self) -> None:
        with self.lock:
            self.db.close()
