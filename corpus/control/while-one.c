/* ub-case
 * category: control
 * standard: C17 6.8.5p6
 * summary: while (1) {} in C: a constant controlling expression, so the loop must not be assumed to end
 * ub: no
 * std: gnu17
 * note: the C counterpart of infinite-loop/while-true; every run spins until the 100 ms timer fires
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

__attribute__((noinline)) static void wait_forever(int argc)
{
    if (argc == 1)
        while (1) {
        }
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGALRM, on_timer);
    struct itimerval t = {{0, 0}, {0, 100000}};
    setitimer(ITIMER_REAL, &t, NULL);
    wait_forever(argc);
    puts("not waiting");
    return 0;
}
