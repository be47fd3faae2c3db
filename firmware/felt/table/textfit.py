# Display text that fits (controller layer, pure): the SSD1306 shows 8 lines of 16 characters
# (drivers/display.py, 8x8 font) and cuts anything longer, so the views (felt/view.py for poker,
# felt/table/blackjack_view.py) choose a wording that fits or wrap whole words -- never cut a number.
WIDTH = 16  # characters a line: a 128x64 SSD1306 with an 8x8 font (drivers/display.py)


def fit(*forms):
    """The first wording that fits a display line; forms go from the fullest to the tersest. A
    line is never cut (the driver would cut it at WIDTH): a cut number misreads ("MAX 980" for
    9800), so a line loses words, never digits. The tersest forms fit any amount below 10^9."""
    for f in forms:
        if len(f) <= WIDTH:
            return f
    return forms[-1]


def wrap(text, rows):
    """Words into at most `rows` lines of WIDTH characters; a longer word is split over lines,
    never cut short."""
    out = []
    line = ""
    for word in text.split():
        while len(word) > WIDTH:
            if line:
                out.append(line)
                line = ""
            out.append(word[:WIDTH])
            word = word[WIDTH:]
        cand = word if not line else line + " " + word
        if len(cand) <= WIDTH:
            line = cand
            continue
        if line:
            out.append(line)
        line = word
    if line:
        out.append(line)
    return out[:rows]
