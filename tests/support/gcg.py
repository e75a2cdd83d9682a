"""A hand-written GCG record with every kind of event (a play, a play through a tile written '.', a note, a
withdrawn phony, a challenge bonus, an exchange, a pass, a time penalty, an end-of-game rack penalty and the
points for going out)."""

HAND = """#character-encoding UTF-8
#player1 ann Ann Example
#player2 bob Bob Example
#lexicon ENABLE
>ann: AEINRST 8D RETAINS +66 66
>bob: ADEJOQU D8 .AJ +10 10
#note R on the board is written '.' as Macondo does
>ann: DEGIOUY 9F OD +12 78
>bob: DEIOQUX 7I QI +44 54
>bob: DEIOQUX -- -44 10
>ann: EGIUYZS (challenge) +5 83
>bob: DEIOQUX -QUX +0 10
>ann: EGIUYZS - +0 83
>bob: ADEEIOR (time) -10 0
>ann: EGIUYZS (EGIUYZS) -20 63
>bob: (ABC) +14 14
"""
