/* ub-case
 * category: string-literal-modification
 * standard: C17 6.4.5p7
 * summary: the fixed twin of write-literal.c: s is an array initialised from the literal
 * ub: no
 * fixes: write-literal.c
 * fixed-line: 26
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static void on_signal(int sig)
{
    (void)sig;
    static const char msg[] = "SIGSEGV\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGSEGV, on_signal);
    char s[] = "hello";
    s[0] = (char)('h' + argc + 1);
    puts(s);
    return 0;
}
