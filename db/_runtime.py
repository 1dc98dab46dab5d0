"""The local Neo4j runtime: a real Neo4j 5.26 Community server assembled from Maven Central.

For machines without a Docker engine. ``docker/neo4j-runtime/pom.xml`` pins the versions; Maven
copies the jars into a cached NEO4J_HOME (never into the repository). Each *instance* (the default
one under the hopgraph home, or a throwaway one for tests) has its own conf, data, logs, ports and
generated password. An instance directory is private to its user (mode 0700; the server and
the admin tool run with umask 077, so what they write is not readable by others either), and the
password is never on a command line: the admin tool reads the initial password from the 0600
password file (``set-initial-password @file``, picocli's argument file).

Start runs the exact command Neo4j's launcher prints with ``console --dry-run`` as a child process
in its own session, records its pid, and waits for Bolt. Stop only signals a pid this module
recorded and whose command line names this instance's configuration directory.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import stat
import string
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from hopgraph.core.errors import DatabaseError, RuntimeSetupError

NEO4J_VERSION = "5.26.19"
GDS_VERSION = "2.13.9"
BROWSER_VERSION = "5.24.0"
DEFAULT_START_TIMEOUT_S = 300.0
DEFAULT_STOP_TIMEOUT_S = 60.0
# what the server and the admin tool create in an instance is readable by its user only
PRIVATE_UMASK = 0o077
# Servers this process started, so that stop() can reap them (and Popen is not collected live).
_CHILDREN: dict[int, subprocess.Popen[bytes]] = {}
_CONF_TEMPLATE = """\
# Written by hopgraph for this instance; regenerated on every start.
server.directories.data={data}
server.directories.logs={logs}
server.directories.run={run}
server.directories.import={import_}
server.directories.plugins={plugins}
server.default_listen_address=127.0.0.1
server.bolt.listen_address=127.0.0.1:{bolt_port}
server.http.listen_address=127.0.0.1:{http_port}
# What the server tells a client to connect to (Neo4j Browser reads the Bolt address from the HTTP
# discovery document): without these it advertises the default port 7687 whatever port it listens on.
server.bolt.advertised_address=localhost:{bolt_port}
server.http.advertised_address=localhost:{http_port}
server.https.enabled=false
server.bolt.tls_level=DISABLED
dbms.security.auth_enabled=true
dbms.security.procedures.unrestricted=apoc.*,gds.*
dbms.usage_report.enabled=false
# false: one cached plan per query text and parameter types. Neo4j's default (true) also keys the
# plan cache by the sizes of list and string parameters, and the legal retrieval query (1.5-3 s to
# plan on 2 cores) was planned again for most new question lengths
# (tests/benchmarks/results/legal_plan_cache.md).
internal.cypher.use_parameter_size={size_hints}
server.memory.heap.initial_size={heap}
server.memory.heap.max_size={heap}
server.memory.pagecache.size={pagecache}
server.jvm.additional=-XX:+UseG1GC
server.jvm.additional=-Dio.netty.tryReflectionSetAccessible=true
server.jvm.additional=--add-opens=java.base/java.nio=ALL-UNNAMED
server.jvm.additional=--add-opens=java.base/java.io=ALL-UNNAMED
server.jvm.additional=--add-opens=java.base/sun.nio.ch=ALL-UNNAMED
server.jvm.additional=--enable-native-access=ALL-UNNAMED
"""


def neo4j_home(cache_root: Path) -> Path:
    """Where the assembled NEO4J_HOME for the pinned versions lives."""
    return cache_root / f"neo4j-{NEO4J_VERSION}-gds{GDS_VERSION}" / "neo4j-home"


def _stderr_line(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def assemble(cache_root: Path, *, quiet: bool = True, pom: Path | None = None,
             progress: Callable[[str], None] | None = _stderr_line) -> Path:
    """Assemble NEO4J_HOME from Maven Central once; later calls return the cached home.

    The first assembly downloads Neo4j, APOC, GDS and the Browser (about 1.5 minutes on a
    2-core machine): ``progress`` receives a line saying so, then a line every
    ``PROGRESS_EVERY_S`` seconds with the artifacts and bytes Maven has fetched, then the time
    it took.

    Args:
        cache_root: where assembled homes are cached.
        quiet: keep Maven's own log out of ``progress`` (its transfers are still counted).
        pom: a packaging pom to use instead of the shipped one (tests, pinned forks).
        progress: where the progress lines go (standard error by default; None: nowhere).

    Raises:
        RuntimeSetupError: Java or Maven is missing, or an artifact cannot be resolved.
    """
    home = neo4j_home(cache_root)
    if (home / ".complete").exists():
        return home
    _require_tool("java", "install OpenJDK 17 or 21 (e.g. apt-get install openjdk-17-jre-headless)")
    _require_tool("mvn", "install Apache Maven (e.g. apt-get install maven)")
    home.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="neo4j-home-", dir=home.parent))
    say = progress or (lambda message: None)
    say(f"assembling Neo4j {NEO4J_VERSION} with APOC, GDS {GDS_VERSION} and Browser "
        f"{BROWSER_VERSION} from Maven Central into {home} (first start only; Maven log "
        f"streams below)")
    started = time.monotonic()
    shipped = resources.files("hopgraph.docker").joinpath("neo4j-runtime/pom.xml")
    with resources.as_file(shipped) as shipped_path:
        pom_path = pom or shipped_path
        # -B without -q: Maven logs every transfer ("Downloaded from central: … (12 kB at …)"),
        # which is the progress to show
        cmd = ["mvn", "-B", "-f", str(pom_path), f"-Dhome.dir={staging}",
               f"-Dproject.build.directory={staging / 'build'}", "package"]
        returncode, output = _run_maven(cmd, say, quiet=quiet)
    if returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        missing = [ln for ln in output if "Could not" in ln or "ERROR" in ln]
        detail = missing[0] if missing else "\n".join(output)[-400:]
        raise RuntimeSetupError(
            f"Maven could not assemble Neo4j {NEO4J_VERSION}: {detail.strip()} "
            "(check network access to Maven Central and the versions pinned in "
            "docker/neo4j-runtime/pom.xml)"
        )
    shutil.rmtree(staging / "build", ignore_errors=True)
    (staging / "conf").mkdir(exist_ok=True)
    if home.exists():
        shutil.rmtree(home)
    staging.rename(home)
    (home / ".complete").write_text(f"{NEO4J_VERSION} {GDS_VERSION} {BROWSER_VERSION}\n")
    say(f"Neo4j assembled in {time.monotonic() - started:.0f}s")
    return home


_TRANSFER = re.compile(r"^(?:\[INFO\] )?Downloaded from \S+: \S+ \((\d+(?:\.\d+)?) (B|kB|MB|GB)")
_UNITS = {"B": 1, "kB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000}
PROGRESS_EVERY_S = 5.0
MAVEN_TAIL_LINES = 200


def _run_maven(cmd: list[str], say: Callable[[str], None], *, quiet: bool
               ) -> tuple[int, list[str]]:
    """Run Maven, counting its transfers into a progress line every ``PROGRESS_EVERY_S``;
    returns its exit status and the last ``MAVEN_TAIL_LINES`` lines of its log."""
    tail: deque[str] = deque(maxlen=MAVEN_TAIL_LINES)
    artifacts, size = 0, 0.0
    last = time.monotonic()
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          bufsize=1) as proc:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.rstrip("\n")
            tail.append(line)
            transfer = _TRANSFER.match(line)
            if transfer is not None:
                artifacts += 1
                size += float(transfer.group(1)) * _UNITS[transfer.group(2)]
            elif not quiet and line.strip():
                say(f"  maven: {line}")
            if time.monotonic() - last >= PROGRESS_EVERY_S:
                last = time.monotonic()
                say(f"  maven: {artifacts} files downloaded ({size / 1e6:.1f} MB)")
        returncode = proc.wait()
    if artifacts:
        say(f"  maven: {artifacts} files downloaded ({size / 1e6:.1f} MB) in all")
    return returncode, list(tail)


def _require_tool(name: str, hint: str) -> None:
    if shutil.which(name) is None:
        raise RuntimeSetupError(f"'{name}' is not on PATH: {hint}")


def port_is_free(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class LocalInstance:
    """One local server: its directories, ports and memory.

    ``root`` and ``cache_root`` are made absolute on construction: the launcher runs in
    NEO4J_HOME, where a relative configuration directory would name the shared home's own
    (empty) ``conf`` and the server would bind Neo4j's default ports and write its data into the
    runtime cache. The ports have no defaults for the same reason: each instance names its own.
    """

    root: Path
    cache_root: Path
    bolt_port: int
    http_port: int
    heap: str = "1g"
    pagecache: str = "512m"
    size_hinted_plans: bool = False  # Neo4j's internal.cypher.use_parameter_size (see the conf)

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root).expanduser().resolve())
        object.__setattr__(self, "cache_root", Path(self.cache_root).expanduser().resolve())

    @property
    def conf_dir(self) -> Path:
        return self.root / "conf"

    @property
    def pid_file(self) -> Path:
        return self.root / "run" / "hopgraph-neo4j.pid"

    @property
    def password_file(self) -> Path:
        return self.root / "neo4j-password"

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"

    @property
    def console_log(self) -> Path:
        return self.root / "logs" / "console.log"

    def password(self) -> str:
        """The generated password, creating it (mode 0600) on first use."""
        if self.password_file.exists():
            return self.password_file.read_text().strip()
        self._private_root()
        # Letters and digits only: neo4j-admin reads a password starting with '-' as an option, and
        # its argument file (@file) splits on blanks and quotes.
        alphabet = string.ascii_letters + string.digits
        value = "".join(secrets.choice(alphabet) for _ in range(24))
        fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(value + "\n")
        return value

    def _private_root(self) -> None:
        """Create the instance directory (or take an existing one) readable by its user only."""
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.root, 0o700)

    def make_private(self) -> None:
        """Take group and other permissions off the instance directory and everything in it
        (instances created before hopgraph made them private)."""
        self._private_root()
        for dirpath, dirnames, filenames in os.walk(self.root):
            for name in [*dirnames, *filenames]:
                path = os.path.join(dirpath, name)
                with contextlib.suppress(FileNotFoundError):
                    mode = os.lstat(path).st_mode
                    if not stat.S_ISLNK(mode) and mode & 0o077:
                        os.chmod(path, stat.S_IMODE(mode) & ~0o077)

    def running_pid(self) -> int | None:
        """The pid of this instance's server if it is alive and really ours, else None."""
        try:
            pid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            return None
        return pid if f"--config-dir={self.conf_dir}" in cmdline else None

    def start(self, *, timeout_s: float = DEFAULT_START_TIMEOUT_S) -> int:
        """Assemble if needed, configure, start the server and wait for Bolt; return the pid.

        Raises:
            RuntimeSetupError: already running, a port is taken, or the server did not come up.
        """
        reap_exited()
        pid = self.running_pid()
        if pid is not None:
            raise RuntimeSetupError(
                f"the local Neo4j is already running (pid {pid}, {self.uri}); "
                "'hopgraph db stop' stops it"
            )
        for port, what in ((self.bolt_port, "Bolt"), (self.http_port, "HTTP")):
            if not port_is_free(port):
                raise RuntimeSetupError(
                    f"port {port} ({what}) is taken by another process; stop it or choose "
                    "other ports with HOPGRAPH_BOLT_PORT / HOPGRAPH_HTTP_PORT"
                )
        home, env = self._prepare()
        command = self._server_command(home, env)
        if f"--config-dir={self.conf_dir}" not in command:
            # the server would run on Neo4j's defaults (ports 7687/7474, data in NEO4J_HOME)
            raise RuntimeSetupError(
                f"the Neo4j launcher did not take this instance's configuration "
                f"({self.conf_dir}); nothing was started"
            )
        self.console_log.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.console_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "ab") as log:
            proc = subprocess.Popen(
                command, cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True, umask=PRIVATE_UMASK,
            )
        _CHILDREN[proc.pid] = proc
        try:
            self.pid_file.parent.mkdir(parents=True, exist_ok=True)
            self.pid_file.write_text(f"{proc.pid}\n")
            os.chmod(self.pid_file, 0o600)
            self._wait_for_bolt(proc, timeout_s)
        except BaseException:
            # a start that fails (timeout, Ctrl-C, a broken pid file) leaves no server behind
            _end_child(proc)
            self.pid_file.unlink(missing_ok=True)
            raise
        return proc.pid

    def stop(self, *, timeout_s: float = DEFAULT_STOP_TIMEOUT_S) -> bool:
        """Stop the server this instance started (SIGTERM, clean shutdown); False if none."""
        pid = self.running_pid()
        if pid is None:
            self.pid_file.unlink(missing_ok=True)
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not Path(f"/proc/{pid}").exists() or _is_zombie(pid):
                break
            time.sleep(0.2)
        else:
            os.kill(pid, signal.SIGKILL)
        child = _CHILDREN.pop(pid, None)
        if child is not None:
            child.wait(timeout=10)
        else:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        self.pid_file.unlink(missing_ok=True)
        return True

    def bulk_import(self, nodes: Sequence[Path], relationships: Sequence[Path], *,
                    array_delimiter: str) -> str:
        """Replace the ``neo4j`` database with CSV files via ``neo4j-admin database import full``.

        The server must be stopped (the import writes store files directly). Whatever the
        database held is replaced; callers check that it was empty or that replacing it was asked
        for. Returns the importer's summary (its last lines).

        Raises:
            RuntimeSetupError: the server is running, or the importer failed (its message).
        """
        pid = self.running_pid()
        if pid is not None:
            raise RuntimeSetupError(
                f"the local Neo4j is running (pid {pid}); bulk import needs it stopped")
        home, env = self._prepare()
        args = ["database", "import", "full", "neo4j", "--overwrite-destination=true",
                f"--array-delimiter=U+{ord(array_delimiter):04X}", "--multiline-fields=true",
                f"--report-file={self.root / 'logs' / 'import.report'}",
                *(f"--nodes={p}" for p in nodes), *(f"--relationships={p}" for p in relationships)]
        out = self._java(home, "org.neo4j.server.startup.Neo4jAdminCommand", args, env)
        return "\n".join(out.strip().splitlines()[-6:])

    def dump(self, to_dir: Path) -> Path:
        """Dump the ``neo4j`` database with ``neo4j-admin database dump`` into ``to_dir``.

        The server must be stopped (Community cannot stop one database). Returns the dump file
        (``to_dir/neo4j.dump``).

        Raises:
            RuntimeSetupError: the server is running, or the dump failed (its message).
        """
        self._require_stopped("a dump")
        home, env = self._prepare()
        to_dir.mkdir(parents=True, exist_ok=True)
        self._admin(home, env, ["database", "dump", "neo4j", f"--to-path={to_dir}",
                                "--overwrite-destination=true"])
        return to_dir / "neo4j.dump"

    def load_dump(self, dump: Path) -> None:
        """Replace the ``neo4j`` database with ``dump`` (``neo4j-admin database load``).

        The server must be stopped. The users, roles and password (the system database) stay.

        Raises:
            RuntimeSetupError: the server is running, the file is missing, or the load failed.
        """
        self._require_stopped("a restore")
        if not dump.is_file():
            raise RuntimeSetupError(f"{dump}: no such dump file")
        home, env = self._prepare()
        # the admin tool reads <dir>/neo4j.dump: give it the file under that name
        with tempfile.TemporaryDirectory(prefix="restore-", dir=self.root) as staging:
            os.symlink(dump.resolve(), Path(staging) / "neo4j.dump")
            self._admin(home, env, ["database", "load", "neo4j", f"--from-path={staging}",
                                    "--overwrite-destination=true"])

    def _require_stopped(self, what: str) -> None:
        pid = self.running_pid()
        if pid is not None:
            raise RuntimeSetupError(f"the local Neo4j is running (pid {pid}); {what} needs it "
                                    "stopped")

    def _prepare(self) -> tuple[Path, dict[str, str]]:
        """Assemble NEO4J_HOME if needed, write the configuration, set the initial password once.

        Returns the home and the environment the launcher and the admin tool run with.
        """
        home = assemble(self.cache_root)
        self.make_private()
        self._write_conf(home)
        env = {**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(self.conf_dir)}
        if not (self.root / "data" / "dbms").exists():
            self.password()  # the file the admin tool reads it from (never an argument)
            self._admin(home, env, ["dbms", "set-initial-password", f"@{self.password_file}"])
        self.make_private()
        return home, env

    def _write_conf(self, home: Path) -> None:
        for sub in ("data", "logs", "run", "import", "conf"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        text = _CONF_TEMPLATE.format(
            data=self.root / "data", logs=self.root / "logs", run=self.root / "run",
            import_=self.root / "import", plugins=home / "plugins", bolt_port=self.bolt_port,
            http_port=self.http_port, heap=self.heap, pagecache=self.pagecache,
            size_hints=str(self.size_hinted_plans).lower(),
        )
        (self.conf_dir / "neo4j.conf").write_text(text)

    def _java(self, home: Path, main: str, args: list[str], env: dict[str, str]) -> str:
        cmd = ["java", "-cp", f"{home}/lib/*", f"-Dbasedir={home}", main, *args]
        proc = subprocess.run(cmd, cwd=home, env=env, capture_output=True, text=True, check=False,
                              umask=PRIVATE_UMASK)
        if proc.returncode != 0:
            raise RuntimeSetupError(
                f"Neo4j launcher failed ({' '.join(args[:2])}): "
                f"{(proc.stderr or proc.stdout).strip()[-300:]}"
            )
        return proc.stdout

    def _admin(self, home: Path, env: dict[str, str], args: list[str]) -> None:
        self._java(home, "org.neo4j.server.startup.Neo4jAdminCommand", args, env)

    def _server_command(self, home: Path, env: dict[str, str]) -> list[str]:
        out = self._java(
            home, "org.neo4j.server.startup.Neo4jCommand", ["console", "--dry-run"], env
        )
        lines = [ln for ln in out.splitlines() if ln.strip()]
        if not lines:
            raise RuntimeSetupError("Neo4j launcher printed no server command for --dry-run")
        return shlex.split(lines[-1])

    def _wait_for_bolt(self, proc: subprocess.Popen[bytes], timeout_s: float) -> None:
        from hopgraph.db._runner import connect

        deadline = time.monotonic() + timeout_s
        last: Exception | None = None
        # at least one try, however short the timeout and however busy the machine
        while True:
            if proc.poll() is not None:
                self.pid_file.unlink(missing_ok=True)
                raise RuntimeSetupError(
                    f"Neo4j exited during start-up (code {proc.returncode}); "
                    f"see {self.console_log}: {_tail(self.console_log)}"
                )
            try:
                connect(self.uri, "neo4j", self.password()).close()
            except DatabaseError as e:
                last = e
                if time.monotonic() >= deadline:
                    break
                time.sleep(1.0)
                continue
            self._wait_for_http(proc, deadline)
            return
        raise RuntimeSetupError(
            f"Neo4j did not answer on {self.uri} within {timeout_s:.0f}s ({last}); "
            f"see {self.console_log}"
        )

    def _wait_for_http(self, proc: subprocess.Popen[bytes], deadline: float) -> None:
        """Bolt answers some seconds before the HTTP connector (Neo4j Browser) opens: wait for it
        too, so the Browser URL a start prints is reachable; past the deadline, go on (hopgraph
        itself needs Bolt only)."""
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.http_port), timeout=1.0).close()
                return
            except OSError:
                time.sleep(0.5)


def reap_exited() -> None:
    """Collect the servers this process started that have died (kill -9, out of memory).

    Until collected such a server is a zombie: its pid stays in Neo4j's own ``neo4j.pid`` and
    looks alive, so the launcher refuses a new start ("Neo4j is already running").
    """
    for pid, proc in list(_CHILDREN.items()):
        if proc.poll() is not None:
            del _CHILDREN[pid]


def _end_child(proc: subprocess.Popen[bytes], *, timeout_s: float = DEFAULT_STOP_TIMEOUT_S) -> None:
    """Stop a server this process started and collect it: SIGTERM to its process group (it runs
    in a session of its own), SIGKILL when it has not exited within ``timeout_s``."""
    for sig, wait_s in ((signal.SIGTERM, timeout_s), (signal.SIGKILL, 10.0)):
        if proc.poll() is not None:
            break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=wait_s)
    _CHILDREN.pop(proc.pid, None)


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except (OSError, IndexError):
        return True


def _tail(path: Path, lines: int = 3) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    errors = [ln for ln in text if "ERROR" in ln or "Caused by" in ln]
    return " | ".join((errors or text)[-lines:])
