/* ub-case
 * category: data-race
 * standard: C++17 [intro.races]/21
 * summary: the fixed twin of stop-flag.cpp: the stop flag is a std::atomic<bool>
 * ub: no
 * fixes: stop-flag.cpp
 * fixed-line: 23, 29
 * link: -pthread
 */
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

static std::atomic<bool> stop;
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
