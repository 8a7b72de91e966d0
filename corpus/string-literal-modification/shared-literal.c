/* ub-case
 * category: string-literal-modification
 * standard: C17 6.4.5p7
 * summary: a string literal written through a pointer after an identical literal was printed
 * ub: yes
 * note: the store faults (SIGSEGV); the handler prints that and exits 0
 * ub-line: 29
 * twin: shared-literal.fixed.c
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
    char *a = "abc";
    const char *b = "abc";
    a[argc] = 'X';
    puts(b);
    return 0;
}
