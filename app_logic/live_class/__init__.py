"""The live class: a teacher paces the replay, students follow on their own devices.

The parts, from the bottom up (none of them imports Streamlit):

* :mod:`.settings`: where the class lives (``PERCEPTRON_LAB_CLASS_DB``) and for how long
  (``PERCEPTRON_LAB_CLASS_HOURS``);
* :mod:`.database`: SQLite or PostgreSQL through the standard library's ``sqlite3`` or
  psycopg 3, a small pool of connections, the schema's version and its migrations, and the
  notices one writer sends every process serving the same classes;
* :mod:`.store`: what a class is (its code, its teacher's key, its students, its view and
  step, its questions and their answers) and every change made to it, each one transaction;
* :mod:`.messages`: what the class's websocket accepts from a teacher and from a student,
  checked before anything is stored;
* :mod:`.questions`: a question to the class and a student's answer, checked, and the
  answers pooled;
* :mod:`.hub`: the websockets of one server process, grouped by class, and what each of
  them is sent when its class changes.

The app's Streamlit side (``ui/live_class.py``) starts and joins classes; the websocket's
route (``class_socket.py``) hands each socket to the hub.
"""
