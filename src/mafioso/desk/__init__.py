"""The sport judge's desk: protocols in the federations' formats, scoring systems as data,
tournaments and ratings.

Everything here is built on one record of a game, the :class:`~mafioso.desk.record.Protocol`:
what a judge writes on the paper protocol (seats, roles, fouls, nominations and votes by day,
shots and checks by night, best move, removals, winner) plus the sheet's header and the judge's
notes. A protocol is taken from a played game (:mod:`mafioso.desk.capture`), read from a
federation's JSON (:mod:`mafioso.desk.mafiaratings`, :mod:`mafioso.desk.polemica`), and
played back through the engine (:mod:`mafioso.desk.replay`), which is how every protocol is
checked: the engine is the only judge of what is legal.
"""
