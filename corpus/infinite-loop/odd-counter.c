/* ub-case
 * category: infinite-loop
 * standard: C17 6.8.5p6
 * summary: a side-effect-free loop with a non-constant condition never ends; C lets the compiler assume it does
 * ub: yes
 * std: gnu17
 * note: n stays odd forever, so an unexploited run spins until the 100 ms timer fires and prints 'timer'
 * ub-line: 31
 * twin: odd-counter.fixed.c
 */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

static void on_timer(int sig)
{
    (void)sig;
    static const char msg[] = "timer\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGALRM, on_timer);
    struct itimerval t = {{0, 0}, {0, 100000}};
    setitimer(ITIMER_REAL, &t, NULL);
    unsigned n = (unsigned)argc;
    while (n % 2 == 1)
        n += 2;
    puts("loop ended");
    return 0;
}
