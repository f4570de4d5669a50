# first.awk - a War Chest bot in awk, through the stdin/stdout bridge:
#     sdk/stdio/arena-stdio -- awk -f agents/stdio/first.awk
# Each request is one JSON line (sdk/PROTOCOL.md section 11). Without a JSON
# parser, it scans the actions' "text" fields in order and answers the index
# of the first control, else attack, else deploy, else recruit, else 0.
#
# It reads its input in BEGIN, one line per `sh read`, rather than with awk's
# main loop: mawk (Debian's awk) fills a whole buffer from a pipe before it
# hands over a line, so it would wait forever for a request that is shorter.
# The shell's read builtin takes exactly one line, whatever the awk.
BEGIN {
    split("control attack deploy recruit", prefer, " ")
    reader = "IFS= read -r line && printf '%s\\n' \"$line\""
    while ((reader | getline line) > 0) {
        close(reader)                       # so the next getline reads anew
        if (index(line, "{\"type\":\"request\"") == 1)
            answer(line)
    }
}

function answer(line,    n, text, p, i) {
    n = 0
    # Action texts are the only "text" keys in a request line.
    while (match(line, /"text":"[^"]*"/)) {
        text[n++] = substr(line, RSTART + 8, RLENGTH - 9)
        line = substr(line, RSTART + RLENGTH)
    }
    for (p = 1; p <= 4; p++)
        for (i = 0; i < n; i++)
            if (index(text[i], prefer[p] " ") == 1) {
                reply(i)
                return
            }
    reply(0)
}

function reply(i) {
    print i
    fflush()              # a pipe is block-buffered: the bridge would wait forever
}
