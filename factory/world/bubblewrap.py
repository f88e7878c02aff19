"""The bubblewrap command line of a sandbox, and whether a sandbox can be had on this machine.

The sandbox sees a read-only system (`/usr` and its links), the Python installation, the
`factory` package and the one code file it runs; its only writable place is a size-capped
tmpfs at `/scratch`. It has its own user, PID, network, IPC, UTS and cgroup namespaces, no
capabilities, cannot create further user namespaces, dies with its parent, and gets an
environment we write out in full (nothing of ours, so no secret, enters).

The kernel does not count processes of host root against RLIMIT_NPROC, even inside a user
namespace, so when we run as root the sandbox runs as `nobody`: a private mount namespace
first binds what the sandbox needs under a staging folder `nobody` can reach (the Python
installation may live under a private `/root`), then `setpriv` drops to `nobody` and runs
bubblewrap unprivileged. Nothing of this is visible outside that mount namespace.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import factory
from factory.errors import FactoryError

SCRATCH = "/scratch"
CODE_DIR = "/code"
FACTORY_DIR = "/opt/factory"  # holds the `factory` package
SITE_DIR = "/opt/site-packages"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64")
HOST_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
STAGE_PREFIX = "factory-sandbox-"  # + host pid: stages of dead hosts can be told apart and swept

# Run as root (in a private mount namespace): bind each source under the staging folder,
# then drop to the sandbox user and exec bubblewrap. Arguments: stage, user, group, N, N
# sources, then the bubblewrap command.
STAGE_SCRIPT = """set -e
stage=$1 user=$2 group=$3 count=$4; shift 4
mount -t tmpfs -o mode=0755,size=64k factory-sandbox-stage "$stage"
i=0
while [ "$i" -lt "$count" ]; do
  if [ -d "$1" ]; then mkdir "$stage/$i"; else : > "$stage/$i"; fi
  mount --bind "$1" "$stage/$i"
  i=$((i + 1)); shift
done
exec setpriv --reuid="$user" --regid="$group" --clear-groups -- "$@"
"""


class SandboxUnavailable(FactoryError):
    """No sandbox can be had here; model-written code must not run at all (fall back instead)."""


@dataclass(frozen=True)
class Bind:
    source: Path  # on the host
    dest: str  # inside the sandbox


def python_binary() -> Path:
    return Path(os.path.realpath(sys.executable))


def python_binds(code: Path | None) -> list[Bind]:
    """The Python installation, its site-packages, the `factory` package and the code file."""
    binds = []
    prefix = Path(sys.base_prefix).resolve()
    if not any(prefix.is_relative_to(d) for d in SYSTEM_DIRS):
        binds.append(Bind(prefix, str(prefix)))  # at its own path: the interpreter finds its libraries there
    site = Path(sysconfig.get_paths()["purelib"])
    if site.is_dir():
        binds.append(Bind(site.resolve(), SITE_DIR))
    binds.append(Bind(Path(factory.__file__).parent.resolve(), f"{FACTORY_DIR}/factory"))
    if code is not None:
        binds.append(Bind(code.resolve(), f"{CODE_DIR}/{code.name}"))
    return binds


def system_args() -> list[str]:
    args = []
    for d in SYSTEM_DIRS:
        path = Path(d)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), d]
        elif path.is_dir():
            args += ["--ro-bind", d, d]
    return args + ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]


def sandbox_env() -> dict[str, str]:
    """The whole environment inside: written out, never inherited."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": SCRATCH,
        "TMPDIR": SCRATCH,
        "LANG": "C.UTF-8",
        "PYTHONPATH": f"{FACTORY_DIR}:{SITE_DIR}",
        "PYTHONHASHSEED": "0",  # the same world for the same seed, set iteration included
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUTF8": "1",
    }


def bwrap_args(binds: list[Bind], sources: list[str], scratch_mb: int) -> list[str]:
    """bubblewrap's options; `sources[i]` is where `binds[i]` is bound from (staged or not)."""
    args = [
        "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
        "--cap-drop", "ALL", "--hostname", "sandbox", "--clearenv",
    ]
    for name, value in sandbox_env().items():
        args += ["--setenv", name, value]
    args += system_args()
    for bind, source in zip(binds, sources, strict=True):
        args += ["--ro-bind", source, bind.dest]
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(scratch_mb * 1024 * 1024), "--tmpfs", SCRATCH]
    return args + ["--remount-ro", "/", "--chdir", SCRATCH]


def _nobody() -> tuple[int, int]:
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def make_stage() -> Path | None:
    """An empty folder for the staged binds when run as root (None otherwise). Under /tmp, not
    $TMPDIR: `nobody` must reach it. The binds onto it live only in the private mount namespace."""
    if os.geteuid() != 0:
        return None
    import tempfile

    parent = Path("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir())
    _sweep_stages(parent)
    stage = Path(tempfile.mkdtemp(prefix=f"{STAGE_PREFIX}{os.getpid()}-", dir=parent))
    os.chmod(stage, 0o755)
    return stage


def _sweep_stages(parent: Path) -> None:
    """Remove stages left by hosts that were killed: their sandboxes died with them."""
    for stage in parent.glob(f"{STAGE_PREFIX}*-*"):
        owner = stage.name[len(STAGE_PREFIX):].split("-", 1)[0]
        if not owner.isdigit():
            continue
        try:
            os.kill(int(owner), 0)
        except ProcessLookupError:
            remove_stage(stage)
        except PermissionError:
            pass  # alive, someone else's


def remove_stage(stage: Path | None) -> None:
    if stage is not None:
        with contextlib.suppress(OSError):
            os.rmdir(stage)  # never recursive: it is an empty mount point on the host


def launch_command(binds: list[Bind], inner: list[str], scratch_mb: int, stage: Path | None) -> list[str]:
    """The full host command: bubblewrap directly, or (as root, with a stage) staged and dropped to `nobody`."""
    bwrap = shutil.which("bwrap", path=HOST_PATH) or "bwrap"
    if stage is None:
        return [bwrap, *bwrap_args(binds, [str(b.source) for b in binds], scratch_mb), "--", *inner]
    staged = [str(stage / str(i)) for i in range(len(binds))]
    uid, gid = _nobody()
    command = [bwrap, *bwrap_args(binds, staged, scratch_mb), "--", *inner]
    return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", STAGE_SCRIPT, "sh",
            str(stage), str(uid), str(gid), str(len(binds)), *[str(b.source) for b in binds], *command]


def host_env() -> dict[str, str]:
    """The environment of the launching commands: a PATH only, so secrets stay out from the start."""
    return {"PATH": HOST_PATH}


def missing_tools() -> list[str]:
    needed = ["bwrap"] + (["unshare", "sh", "mount", "setpriv"] if os.geteuid() == 0 else [])
    return [tool for tool in needed if shutil.which(tool, path=HOST_PATH) is None]


@cache
def unavailable_reason() -> str | None:
    """Why no sandbox can be had here (None when one can). Probed once per process, so a run
    that falls back to the simulator can say why once, from this one answer."""
    return _probe()


def _probe() -> str | None:
    missing = missing_tools()
    if missing:
        hint = " (the Debian package bubblewrap)" if "bwrap" in missing else " (util-linux)"
        return f"{', '.join(missing)} not found{hint}"
    stage = make_stage()
    inner = [str(python_binary()), "-S", "-c", "import factory.toolbox"]
    command = launch_command(python_binds(None), inner, 1, stage)
    try:
        done = subprocess.run(command, env=host_env(), capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not be started: {exc}"
    finally:
        remove_stage(stage)
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot create a sandbox here: {said[-1] if said else f'exit status {done.returncode}'}"
    return None
