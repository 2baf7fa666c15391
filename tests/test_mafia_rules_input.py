"""The Classic Mafia rules, one focused test per rule: inputs refused (and changing nothing), and the
table as it is drawn.

Authority: the rules as implemented, docs/rules/mafia.md; the deals and how games are driven:
``tests/mafia_staging.py``.
"""

from __future__ import annotations

import random

import pytest

from arbiter.engine.errors import IllegalMoveError, NotYourTurnError, SyntaxInputError, UnknownActionError, UnknownSeatError
from arbiter.engine.events import HOST
from arbiter.engine.games.mafia.moves import move_name, parse_move
from arbiter.engine.games.mafia.rules import variant_name
from arbiter.engine.session import Session

from tests.helpers import MAFIA, host, mafia_game, play, refused
from tests.mafia_staging import ALL_AGENT, ALL_AGENT_DECK, EIGHT, SIX, awaited, expel, nominate, quiet_day


# ============================================================================= bad input


def day_one() -> Session:
    return mafia_game(EIGHT)


def roll_call() -> Session:
    s = mafia_game(EIGHT)
    nominate(s, p2="p6")
    return s


def mafia_step() -> Session:
    s = mafia_game(EIGHT)
    quiet_day(s)
    s.submit("p3", "seduce p4")
    return s


def after_a_death() -> Session:
    s = mafia_game(EIGHT)
    expel(s, "p7")
    return s


@pytest.mark.parametrize("stage, seat, text, error", [
    # unknown verbs and empty input
    (day_one, "p1", "dance", UnknownActionError),
    (day_one, "p1", "", UnknownActionError),
    (mafia_step, "p1", "murder p6", UnknownActionError),
    # wrong argument counts
    (day_one, "p1", "nominate", SyntaxInputError),
    (day_one, "p1", "nominate p2 p3", SyntaxInputError),
    (day_one, "p1", "pass p2", SyntaxInputError),
    (day_one, "p1", "leave now", SyntaxInputError),
    (day_one, "p1", "say", SyntaxInputError),
    (roll_call, "p1", "vote", SyntaxInputError),
    (roll_call, "p1", "vote p6 p7", SyntaxInputError),
    (roll_call, "p1", "abstain p6", SyntaxInputError),
    (mafia_step, "p1", "kill", SyntaxInputError),
    (mafia_step, "p1", "kill p6 p7", SyntaxInputError),
    # a target that is not a seat
    (day_one, "p1", "nominate p9", SyntaxInputError),
    (day_one, "p1", "nominate bob", SyntaxInputError),
    (roll_call, "p1", "vote p0", SyntaxInputError),
    (mafia_step, "p1", "kill host", SyntaxInputError),
    # out of phase
    (day_one, "p1", "vote p2", IllegalMoveError),
    (day_one, "p1", "abstain", IllegalMoveError),
    (day_one, "p1", "kill p6", IllegalMoveError),
    (day_one, "p3", "seduce p6", IllegalMoveError),
    (day_one, "p2", "suggest p6", IllegalMoveError),
    (roll_call, "p1", "nominate p7", IllegalMoveError),
    (roll_call, "p1", "pass", IllegalMoveError),
    (roll_call, "p1", "kill p6", IllegalMoveError),
    (mafia_step, "p1", "nominate p6", IllegalMoveError),
    (mafia_step, "p2", "vote p6", IllegalMoveError),
    (mafia_step, "p2", "abstain", IllegalMoveError),
    (mafia_step, "p3", "seduce p6", NotYourTurnError),
    (mafia_step, "p4", "shoot p1", NotYourTurnError),
    (mafia_step, "p6", "pass", NotYourTurnError),
    (mafia_step, "p1", "shoot p6", IllegalMoveError),
    # the dead as a target
    (after_a_death, "p1", "seduce p7", NotYourTurnError),
    (after_a_death, "p3", "seduce p7", IllegalMoveError),
    # the dead acting
    (after_a_death, "p7", "say hi", IllegalMoveError),
    # a seat that is not in the game
    (day_one, "p9", "pass", UnknownSeatError),
])
def test_bad_input_is_refused_and_changes_nothing(stage, seat, text, error):
    s = stage()
    refused(s, seat, text, error)


def test_targeting_the_dead_is_refused_everywhere():
    s = mafia_game(EIGHT)
    expel(s, "p7")
    refused(s, "p3", "seduce p7", IllegalMoveError)
    s.submit("p3", "seduce p4")
    refused(s, "p2", "suggest p7", IllegalMoveError)
    refused(s, "p1", "kill p7", IllegalMoveError)
    s.submit("p1", "kill p6")
    refused(s, "p4", "shoot p7", IllegalMoveError)
    refused(s, "p4", "arrest p7", IllegalMoveError)
    s.submit("p4", "arrest p8")
    refused(s, "p8", "ban p7", IllegalMoveError)
    s.submit("p8", "ban p2")
    refused(s, "p1", "nominate p7", IllegalMoveError)
    refused(s, "p1", "nominate p6", IllegalMoveError)  # killed in night 1


def test_an_unknown_word_of_a_seat_out_of_the_game_lists_no_form_it_cannot_use():
    """A seat out of the game may send nothing: its unknown word listed all thirteen forms."""
    s = mafia_game(EIGHT)
    expel(s, "p7")
    wrong = refused(s, "p7", "dance", UnknownActionError)
    assert wrong == "'dance' is not an action of Classic Mafia; p7 is out of the game (expelled on day 1) and sends nothing more"
    assert wrong.error.allowed == ()
    assert refused(s, "p6", "dance", UnknownActionError).error.allowed  # a living seat's forms


def test_targeting_oneself_is_refused_for_every_power():
    s = mafia_game(ALL_AGENT, deck=ALL_AGENT_DECK)
    refused(s, "p1", "nominate p1", IllegalMoveError)
    quiet_day(s)
    refused(s, "p3", "protect p3", IllegalMoveError)
    s.submit("p3", "protect p6")
    refused(s, "p2", "suggest p2", IllegalMoveError)
    refused(s, "p1", "kill p1", IllegalMoveError)
    s.submit("p1", "kill p6")
    refused(s, "p5", "suggest p5", IllegalMoveError)
    refused(s, "p4", "shoot p4", IllegalMoveError)
    refused(s, "p4", "arrest p4", IllegalMoveError)
    s.submit("p4", "arrest p2")
    refused(s, "p7", "ban p7", IllegalMoveError)
    s.submit("p7", "ban p1")
    refused(s, "p8", "kill p8", IllegalMoveError)


def test_words_are_case_insensitive_and_recorded_canonically():
    s = mafia_game(EIGHT)
    s.submit("p1", "NOMINATE P6")
    assert s.moves[-1].text == "nominate p6"
    assert host(s)["nominations"] == {"p6": "p1"}


def test_a_wrong_time_is_refused_before_wrong_words_for_nominations_votes_and_night_actions():
    """Nominate, vote, suggest and the night powers are judged on their timing before their words;
    pass, abstain, say and leave are read first."""
    s = day_one()
    assert refused(s, "p1", "kill", IllegalMoveError) == "kill is a night action; it is the nominations of day 1 now"
    assert refused(s, "p1", "vote", IllegalMoveError) == "vote belongs to the roll-call vote; it is the nominations of day 1 now"
    assert refused(s, "p2", "suggest", IllegalMoveError) == \
        "suggest is a night action (a team's conference); it is the nominations of day 1 now"
    assert refused(s, "p1", "abstain p6", SyntaxInputError) == "abstain takes no words after it"
    r = roll_call()
    assert refused(r, "p1", "nominate", IllegalMoveError) == (
        "nominate belongs to the nominations; it is the vote of day 1 (round 1) now")
    assert refused(r, "p1", "pass p6", SyntaxInputError) == "pass takes no words after it"


def test_every_legal_input_reads_back_as_the_move_it_names():
    for seed in (1, 2):
        s = Session(MAFIA, variant_name(8), seed=seed)
        rng = random.Random(seed)
        while not s.over:
            for seat in s.seats:
                for m in s.state.legal_moves(seat):
                    assert parse_move(move_name(m), s.seats) == m
            seat = s.state.awaiting()[0].seat
            s.submit(seat, MAFIA.choose_input(s.state, seat, rng))


def test_say_is_capped_at_the_data_limit_and_a_longer_line_changes_nothing():
    s = mafia_game(SIX)
    limit = s.state.data.selection.say_max_chars
    refused(s, "p1", "say " + "x" * (limit + 1), SyntaxInputError)
    s.submit("p1", "say " + "x" * limit)
    assert s.events[-1].data == {"seat": "p1", "text": "x" * limit}


def test_the_head_is_awaited_once_the_team_has_spoken_but_may_act_sooner():
    """Bots act only when awaited, so a human Mafia member always gets to suggest before a bot
    Boss kills; a human Boss may still end the conference at once."""
    s = mafia_game(SIX)
    quiet_day(s)
    s.submit("p3", "seduce p5")
    assert awaited(s) == [("p2", "confer")]
    assert "kill p5" in s.state.legal_inputs("p1")
    s.submit("p2", "suggest p5")
    assert awaited(s) == [("p1", "night")]
    early = mafia_game(SIX)
    quiet_day(early)
    early.submit("p3", "seduce p5")
    early.submit("p1", "kill p6")
    assert awaited(early) == [("p4", "night")]


# ========================================================================= the table, drawn
MAFIA_BOARDS = {
    "VOTE_HOST": """\
Classic Mafia, custom deck, 8 players: day 2: vote, round 1
candidates: p6 p4   next to vote: p3
seat  status                  card          nominated by  vote  note
----  ----------------------  ------------  ------------  ----  -------
p1    alive                   Mafia Boss                  p6
p2    alive                   Mafia                       p4
p3    alive                   Agent
p4    alive                   Police Chief  p2
p5    out: killed in night 1  Police
p6    alive                   Civilian      p1                  (below)
p7    alive                   Chameleon                         (below)
p8    alive                   Fighter                           (below)
note: p6: protected from today's vote
note: p7: arrested: skips next night
note: p8: may not vote today
alive: town 3, mafia 2, loners 2""",
    "VOTE_P2": """\
Classic Mafia, custom deck, 8 players: day 2: vote, round 1
candidates: p6 p4   next to vote: p3
seat  status                  card        nominated by  vote  note
----  ----------------------  ----------  ------------  ----  ---------
p1    alive                   Mafia Boss                p6    your team
p2    alive                   Mafia                     p4    you
p3    alive                   ?
p4    alive                   ?           p2
p5    out: killed in night 1  Police
p6    alive                   ?           p1
p7    alive                   ?
p8    alive                   ?                               (below)
note: p8: may not vote today
your card: Mafia""",
    "NIGHT_HOST": """\
Classic Mafia, custom deck, 8 players: night 2: mafia step
seat  status                  card          nominated by  vote  note
----  ----------------------  ------------  ------------  ----  -------
p1    alive                   Mafia Boss
p2    alive                   Mafia
p3    alive                   Agent
p4    alive                   Police Chief
p5    out: killed in night 1  Police
p6    alive                   Civilian
p7    alive                   Chameleon                         (below)
p8    alive                   Fighter
note: p7: under arrest tonight
awake: The Mafia wakes and chooses a victim.
suggestions: p2 p8
alive: town 3, mafia 2, loners 2""",
    "NIGHT_P1": """\
Classic Mafia, custom deck, 8 players: night 2: mafia step
seat  status                  card        nominated by  vote  note
----  ----------------------  ----------  ------------  ----  ---------
p1    alive                   Mafia Boss                      you
p2    alive                   Mafia                           your team
p3    alive                   ?
p4    alive                   ?
p5    out: killed in night 1  Police
p6    alive                   ?
p7    alive                   ?
p8    alive                   ?
awake: The Mafia wakes and chooses a victim.
suggestions: p2 p8
your card: Mafia Boss""",
    "NIGHT_P6": """\
Classic Mafia, custom deck, 8 players: night 2: mafia step
seat  status                  card      nominated by  vote  note
----  ----------------------  --------  ------------  ----  ----
p1    alive                   ?
p2    alive                   ?
p3    alive                   ?
p4    alive                   ?
p5    out: killed in night 1  Police
p6    alive                   Civilian                      you
p7    alive                   ?
p8    alive                   ?
awake: The Mafia wakes and chooses a victim.
your card: Civilian""",
}


def test_the_table_reads_as_written_for_the_host_a_team_and_a_civilian():
    """Whole tables at two moments of one game: a roll-call with the host's notes (a
    protection, an arrest, a ban), its votes and the next voter, as the host and a Mafia
    player see them ("you", "your team", unknown cards as "?"); at night the one under arrest,
    the step awake, and the team's suggestions, for the host and the Mafia but not a Civilian."""
    s = mafia_game(ALL_AGENT, deck=ALL_AGENT_DECK)
    quiet_day(s)
    play(s, "p3 protect p6", "p2 suggest p5", "p1 kill p5", "p4 arrest p7", "p7 ban p8", "p8 pass")
    nominate(s, p1="p6", p2="p4")
    play(s, "p1 vote p6", "p2 vote p4")
    assert (s.render(HOST), s.render("p2")) == (MAFIA_BOARDS["VOTE_HOST"], MAFIA_BOARDS["VOTE_P2"])
    play(s, "p3 vote p6", "p4 vote p6", "p6 vote p4", "p7 vote p6", "p3 protect p4", "p2 suggest p8")
    assert [s.render(seat) for seat in (HOST, "p1", "p6")] == [
        MAFIA_BOARDS["NIGHT_HOST"], MAFIA_BOARDS["NIGHT_P1"], MAFIA_BOARDS["NIGHT_P6"]]
