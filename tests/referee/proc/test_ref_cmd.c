/*
 * test_ref_cmd.c - splitting bot commands into words (ref_cmd.h): the
 * shell's quoting, leading assignments and exec, and the fall back to
 * /bin/sh -c for everything else the shell would interpret; and the check
 * that a command's program can run, the one `arena bot add` makes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ref_cmd.h"

/* Parses text and checks argv against want (NULL-terminated), assign
 * against want_assign, and shell. */
static void expect(const char *text, const char *const *want, const char *const *want_assign,
                   int shell)
{
    ref_cmd c;
    char err[128];
    if (ref_cmd_parse(&c, text, err, sizeof err) != 0)
        fail_msg("'%s': %s", text, err);
    assert_int_equal(c.shell, shell);
    int i = 0;
    for (; want[i]; i++) {
        assert_non_null(c.argv[i]);
        assert_string_equal(c.argv[i], want[i]);
    }
    assert_null(c.argv[i]);
    for (i = 0; want_assign && want_assign[i]; i++)
        assert_string_equal(c.assign[i], want_assign[i]);
    assert_null(c.assign[i]);
    ref_cmd_free(&c);
}

static void test_words_and_quotes(void **state)
{
    (void)state;
    expect("  bot  -x\t1 ", (const char *[]){ "bot", "-x", "1", NULL }, NULL, 0);
    expect("a 'b c' \"d e\" f\\ g", (const char *[]){ "a", "b c", "d e", "f g", NULL }, NULL, 0);
    expect("p \"q\\\"r\\\\s\" 'x\\y' ''", (const char *[]){ "p", "q\"r\\s", "x\\y", "", NULL },
           NULL, 0);
    expect("a'b'\"c\"d", (const char *[]){ "abcd", NULL }, NULL, 0);
}

static void test_assignments_and_exec(void **state)
{
    (void)state;
    expect("A=1 B_2='x y' exec /bin/bot A=3",
           (const char *[]){ "/bin/bot", "A=3", NULL }, (const char *[]){ "A=1", "B_2=x y", NULL },
           0);
    /* A quoted name, or one that is no name, is a word, not an assignment. */
    expect("'A'=1 bot", (const char *[]){ "A=1", "bot", NULL }, NULL, 0);
    expect("1A=x bot", (const char *[]){ "1A=x", "bot", NULL }, NULL, 0);
    expect("'exec' bot", (const char *[]){ "exec", "bot", NULL }, NULL, 0);
}

static void test_shell_syntax_falls_back(void **state)
{
    (void)state;
    static const char *const shell[] = {
        "a | b", "a && b", "a; b", "a > f", "a < f", "echo $HOME", "echo `x`", "ls *.c",
        "a &", "(a)", "echo \"$x\"", "cd dir", "exit 3", "ulimit -n", "a # c", "~/bot",
        "a\nb", "a\\\nb",
    };
    for (size_t i = 0; i < sizeof shell / sizeof shell[0]; i++)
        expect(shell[i], (const char *[]){ "/bin/sh", "-c", shell[i], NULL }, NULL, 1);
}

static void test_errors(void **state)
{
    (void)state;
    ref_cmd c;
    char err[128];
    assert_int_equal(ref_cmd_parse(&c, "", err, sizeof err), -1);
    assert_string_equal(err, "the command is empty");
    assert_int_equal(ref_cmd_parse(&c, "A=1 exec", err, sizeof err), -1);
    assert_string_equal(err, "the command is empty");
    assert_int_equal(ref_cmd_parse(&c, "bot 'open", err, sizeof err), -1);
    assert_string_equal(err, "unterminated quote in the command");
    assert_int_equal(ref_cmd_parse(&c, "bot \"open", err, sizeof err), -1);
    ref_cmd_free(&c);   /* harmless on a failed parse */
}

/* The program found as the spawn finds it: by its path (from the bot's
 * folder when relative, once unquoted), or in PATH after assignments. */
static void test_check(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(ref_cmd_check("A=1 exec sh -c true", NULL, err, sizeof err), 0);
    assert_int_equal(ref_cmd_check("'/bin/sh' x", NULL, err, sizeof err), 0);
    assert_int_equal(ref_cmd_check("./sh", "/bin", err, sizeof err), 0);
    assert_int_equal(ref_cmd_check("cd /tmp && ./bot", NULL, err, sizeof err), 0);
    assert_int_equal(ref_cmd_check("arena-no-such-command-xyz --x", NULL, err, sizeof err), -1);
    assert_string_equal(err, "command not found: arena-no-such-command-xyz");
    assert_int_equal(ref_cmd_check("'./no bot'", "/nonexistent", err, sizeof err), -1);
    assert_string_equal(err, "cannot run /nonexistent/./no bot: No such file or directory");
    assert_int_equal(ref_cmd_check("A=1", NULL, err, sizeof err), -1);
    assert_string_equal(err, "the command is empty");
    assert_int_equal(ref_cmd_check("bot 'open", NULL, err, sizeof err), -1);
    assert_string_equal(err, "unterminated quote in the command");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words_and_quotes),
        cmocka_unit_test(test_assignments_and_exec),
        cmocka_unit_test(test_shell_syntax_falls_back),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
