/* ub-case
 * category: data-race
 * standard: C++17 [intro.races]/21
 * summary: a worker thread spins until a plain bool stop flag written by the main thread becomes true
 * ub: yes
 * link: -pthread
 * note: unexploited, the worker spins while the main thread sleeps 10 ms, then sees the flag and stops; the atomic start flag only makes sure it has begun
 * ub-line: 24, 30
 * twin: stop-flag.fixed.cpp
 */
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

static bool stop;
static std::atomic<bool> started;

int main(int argc, char **)
{
    unsigned long spins = 0;
    std::thread worker([&spins] {
        started = true;
        while (!stop)
            spins++;
    });
    while (!started) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stop = argc > 0;
    worker.join();
    std::puts(spins > 0 ? "stopped after spinning" : "stopped at once");
    return 0;
}
