/* ub-case
 * category: string-literal-modification
 * standard: C17 6.4.5p7
 * summary: the fixed twin of shared-literal.c: a is an array initialised from the literal
 * ub: no
 * fixes: shared-literal.c
 * fixed-line: 28
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
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGSEGV, on_signal);
    char a[] = "abc";
    const char *b = "abc";
    a[argc] = 'X';
    puts(a);
    puts(b);
    return 0;
}
