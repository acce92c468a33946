"""The class database: SQLite or PostgreSQL, its schema's versions, and change notices.

Why the drivers themselves (the standard library's ``sqlite3`` and psycopg 3), not an
abstraction over them: the store's SQL is a score of short statements written once in the
subset both databases read alike (``?`` placeholders become psycopg's ``%s``; ``DOUBLE
PRECISION``, ``BIGINT``, ``TEXT``, ``INSERT ... ON CONFLICT``), and the two things the class
needs beyond SQL are each database's own: PostgreSQL's ``LISTEN``/``NOTIFY`` and SQLite's
``PRAGMA data_version``, which only the drivers reach. psycopg is imported only for a
``postgresql://`` URL (the ``postgres`` extra installs it).

* **Connections.** A small pool, shared by the server's threads (Streamlit's script runs
  and the websocket's worker threads): a connection serves one transaction at a time.
  SQLite runs in WAL mode (readers do not wait for the writer) with a busy timeout;
  a write transaction starts with ``BEGIN IMMEDIATE``, so two processes on one file take
  turns instead of failing. A PostgreSQL connection that broke (the server restarted) is
  dropped, and the transaction is tried once more on a fresh one.
* **Versions.** ``schema_version`` holds the schema's number; :data:`MIGRATIONS` lists the
  steps from each version to the next, run in order in one transaction each, under a lock
  (PostgreSQL's advisory lock; SQLite's write lock), so processes that start together
  migrate once. A database newer than this code is refused with a message.
* **Notices.** A transaction may name the classes it changed (:meth:`Transaction.notice`).
  With PostgreSQL they travel by ``NOTIFY`` on commit, and every process (the writer's
  too) hears them on a listening connection of its own. With SQLite the writing process
  calls its listeners itself after the commit, and a thread also polls ``PRAGMA
  data_version`` (a read of one number in memory) to hear other processes' commits on the
  same file, with no class named (the listener refreshes every class it serves).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

log = logging.getLogger("perceptron_lab")

#: The channel of PostgreSQL's notices.
CHANNEL = "perceptron_lab_class"
#: How often a SQLite listener looks for other processes' commits, in seconds.
POLL_SECONDS = 0.2
#: How long a SQLite connection waits for another's write lock, in seconds.
BUSY_SECONDS = 10.0
#: Connections a process keeps open at most (further transactions wait for one).
POOL_SIZE = 8
#: A listener's wait before it connects again after losing its connection, in seconds.
RECONNECT_SECONDS = 1.0

#: The schema, from each version to the next: ``(version, statements)``, in order. Every
#: statement is read alike by SQLite and PostgreSQL. A new version is a new entry at the
#: end; an entry already released is never edited (a database out there is at its version).
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE classes (
                id TEXT PRIMARY KEY,
                code TEXT NOT NULL UNIQUE,
                teacher_hash TEXT NOT NULL UNIQUE,
                created DOUBLE PRECISION NOT NULL,
                expires DOUBLE PRECISION NOT NULL,
                mode TEXT NOT NULL,
                view_params TEXT NOT NULL,
                view_rev BIGINT NOT NULL,
                step BIGINT NOT NULL,
                bring BIGINT NOT NULL,
                rev BIGINT NOT NULL,
                seats BIGINT NOT NULL
            )""",
            "CREATE INDEX classes_expires ON classes (expires)",
            """CREATE TABLE students (
                id TEXT PRIMARY KEY,
                class_id TEXT NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
                token_hash TEXT NOT NULL UNIQUE,
                number BIGINT NOT NULL,
                nickname TEXT NOT NULL,
                joined DOUBLE PRECISION NOT NULL,
                seen DOUBLE PRECISION NOT NULL,
                view_params TEXT,
                step BIGINT
            )""",
            "CREATE INDEX students_class ON students (class_id)",
        ),
    ),
    (
        2,
        (
            # nicknames on the teacher's screen, off until the teacher turns them on
            "ALTER TABLE classes ADD COLUMN show_names BIGINT NOT NULL DEFAULT 0",
            # wrong class codes, for the rate limit of joins (one row per failed join)
            "CREATE TABLE join_failures (failed_at DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX join_failures_at ON join_failures (failed_at)",
        ),
    ),
    (
        3,
        (
            # questions to the class (numbered 1, 2, ... in it): what every page is sent
            # (public), the right answer (key), "open", "revealed" or "closed", and the pooled
            # answers kept at the reveal (results)
            """CREATE TABLE questions (
                id TEXT PRIMARY KEY,
                class_id TEXT NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
                number BIGINT NOT NULL,
                asked DOUBLE PRECISION NOT NULL,
                view_rev BIGINT NOT NULL,
                public TEXT NOT NULL,
                answer_key TEXT NOT NULL,
                state TEXT NOT NULL,
                results TEXT,
                UNIQUE (class_id, number)
            )""",
            # one answer per student and question: a changed answer replaces the first
            """CREATE TABLE answers (
                question_id TEXT NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
                student_id TEXT NOT NULL REFERENCES students (id) ON DELETE CASCADE,
                answer TEXT NOT NULL,
                answered DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (question_id, student_id)
            )""",
        ),
    ),
    (
        4,
        (
            # what a question is about: "view", a prediction about the class's view (a new
            # view puts it away), or "exercise", one of a lesson's exercises, asked with the
            # lesson's own numbers (the class's view does not change it)
            "ALTER TABLE questions ADD COLUMN about TEXT NOT NULL DEFAULT 'view'",
        ),
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]


class DatabaseError(RuntimeError):
    """The class database cannot be used (its message says why and what to do)."""


def _is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


class Transaction:
    """One transaction: statements with ``?`` placeholders, and the notices it sends."""

    def __init__(self, connection, postgres: bool):
        self._connection = connection
        self._postgres = postgres
        self.notices: list[tuple[str, str]] = []

    def _sql(self, sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s") if self._postgres else sql

    def run(self, sql: str, params: Sequence = ()) -> int:
        """Run a statement; the number of rows it changed."""
        cursor = self._connection.execute(self._sql(sql), tuple(params))
        return cursor.rowcount

    def one(self, sql: str, params: Sequence = ()) -> tuple | None:
        """The first row of a query, or None."""
        return self._connection.execute(self._sql(sql), tuple(params)).fetchone()

    def all(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """Every row of a query."""
        return list(self._connection.execute(self._sql(sql), tuple(params)).fetchall())

    def notice(self, class_id: str, kind: str) -> None:
        """Tell every process serving ``class_id`` that it changed (``kind``: what changed),
        once this transaction has committed."""
        if (class_id, kind) in self.notices:
            return
        self.notices.append((class_id, kind))
        if self._postgres:  # delivered by PostgreSQL on commit, to every listener
            self.run("SELECT pg_notify(?, ?)", (CHANNEL, f"{class_id} {kind}"))


#: A listener hears ``(class_id, kind)``; ``class_id`` is None when any class may have
#: changed (another process wrote to a SQLite file, a listener connected again).
Listener = Callable[[str | None, str], None]


class Database:
    """A pool of connections to one class database, migrated to :data:`SCHEMA_VERSION`.

    Parameters
    ----------
    target : str
        A ``postgresql://`` URL, or the path of a SQLite file (made, with its folder, if
        missing).
    migrations : sequence, optional
        The schema's steps (:data:`MIGRATIONS`; a test passes a prefix to make an old
        database).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> db = Database(str(folder / "class.sqlite3"))
    >>> db.version(), db.run(lambda tx: tx.one("SELECT count(*) FROM classes"))
    (4, (0,))
    >>> db.close()
    """

    def __init__(self, target: str, migrations=MIGRATIONS):
        self.target = target
        self.postgres = _is_postgres(target)
        self._idle: list = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(POOL_SIZE)
        self._listeners: list[Listener] = []
        self._listening: threading.Thread | None = None
        self._closed = threading.Event()
        if self.postgres:
            try:
                import psycopg  # noqa: F401
            except ImportError:
                raise DatabaseError(
                    "PERCEPTRON_LAB_CLASS_DB names a PostgreSQL database, but psycopg is not "
                    "installed: pip install 'perceptron-lab[postgres]'."
                ) from None
        else:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        self._migrate(migrations)

    # -- connections ---------------------------------------------------------------------

    def _connect(self):
        if self.postgres:
            import psycopg

            return psycopg.connect(self.target, autocommit=True, connect_timeout=10)
        connection = sqlite3.connect(
            self.target, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
        )
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute("PRAGMA foreign_keys=ON")
        return connection

    def _broken(self, error: Exception) -> bool:
        """Whether ``error`` says the connection itself is lost (worth one more try)."""
        if not self.postgres:
            return False
        import psycopg

        return isinstance(error, psycopg.OperationalError)

    def run(self, work: Callable[[Transaction], object], write: bool = False):
        """``work(transaction)`` in one transaction, committed if it returns; its result.

        A PostgreSQL connection lost on the way (a restarted server) is dropped, and the
        work tried once more on a new one. After the commit, with SQLite, this process's
        listeners hear the transaction's notices.
        """
        for attempt in (1, 2):
            try:
                result, notices = self._once(work, write)
            except Exception as error:
                if attempt == 1 and self._broken(error):
                    log.warning("The class database's connection was lost; connecting again")
                    continue
                raise
            break
        if not self.postgres:
            for class_id, kind in notices:
                self._tell(class_id, kind)
        return result

    def _once(self, work, write: bool):
        self._slots.acquire()
        connection = None
        try:
            with self._lock:
                connection = self._idle.pop() if self._idle else None
            if connection is None:
                connection = self._connect()
            transaction = Transaction(connection, self.postgres)
            if self.postgres:
                with connection.transaction():
                    result = work(transaction)
            else:
                connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    result = work(transaction)
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
            with self._lock:
                self._idle.append(connection)
            connection = None
            return result, transaction.notices
        finally:
            if connection is not None:  # it failed: a connection in an unknown state goes
                with contextlib.suppress(Exception):
                    connection.close()
            self._slots.release()

    def close(self) -> None:
        """Close every connection and stop listening."""
        self._closed.set()
        with self._lock:
            idle, self._idle = self._idle, []
        for connection in idle:
            with contextlib.suppress(Exception):
                connection.close()

    # -- the schema ------------------------------------------------------------------------

    def version(self) -> int:
        """The schema's version of the database."""
        return self.run(_version)

    def _migrate(self, migrations) -> None:
        known = migrations[-1][0]

        def migrate(tx: Transaction) -> None:
            if self.postgres:  # one process migrates; the others wait, then find it done
                tx.run("SELECT pg_advisory_xact_lock(?)", (0x5E_C1A55,))
            tx.run("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            version = _version(tx)
            if version > SCHEMA_VERSION:
                raise DatabaseError(
                    f"The class database {self._name()} is at schema version {version}; this "
                    f"Perceptron Lab knows versions up to {SCHEMA_VERSION}. Upgrade it, or "
                    "point PERCEPTRON_LAB_CLASS_DB at another database."
                )
            for number, statements in migrations:
                if number <= version:
                    continue
                for statement in statements:
                    tx.run(statement)
                if version == 0:
                    tx.run("INSERT INTO schema_version (version) VALUES (?)", (number,))
                else:
                    tx.run("UPDATE schema_version SET version = ?", (number,))
                version = number
                log.info("The class database is now at schema version %d", number)
            assert version == known

        self.run(migrate, write=True)

    def _name(self) -> str:
        """The database as a message may name it (a URL without its password)."""
        if not self.postgres:
            return self.target
        from urllib.parse import urlsplit

        parts = urlsplit(self.target)
        return f"{parts.scheme}://{parts.hostname or ''}{parts.path}"

    # -- notices ---------------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Call ``listener(class_id, kind)`` (from another thread) for every change notice."""
        with self._lock:
            self._listeners.append(listener)
            if self._listening is None:
                target = self._listen_postgres if self.postgres else self._poll_sqlite
                self._listening = threading.Thread(
                    target=target, name="class-database-notices", daemon=True
                )
                self._listening.start()

    def _tell(self, class_id: str | None, kind: str) -> None:
        for listener in list(self._listeners):
            try:
                listener(class_id, kind)
            except Exception:  # one listener's bug must not silence the others
                log.exception("A listener of the class database failed")

    def _listen_postgres(self) -> None:
        import psycopg

        failures = 0
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.target, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    failures = 0
                    self._tell(None, "connected")  # notices may have been missed meanwhile
                    while not self._closed.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            class_id, _, kind = notice.payload.partition(" ")
                            self._tell(class_id, kind)
            except psycopg.Error as error:
                if failures == 0:  # said once per outage, not at every try
                    log.warning("The class database's notices stopped (%s); retrying", error)
                failures += 1
                self._closed.wait(min(RECONNECT_SECONDS * failures, 10.0))

    def _poll_sqlite(self) -> None:
        connection = self._connect()
        last = connection.execute("PRAGMA data_version").fetchone()[0]
        while not self._closed.wait(POLL_SECONDS):
            now = connection.execute("PRAGMA data_version").fetchone()[0]
            if now != last:
                last = now
                self._tell(None, "changed")
        connection.close()


def _version(tx: Transaction) -> int:
    row = tx.one("SELECT version FROM schema_version")
    return 0 if row is None else int(row[0])
