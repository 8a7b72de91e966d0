/* ub-case
 * category: data-race
 * standard: C++17 [intro.races]/21
 * summary: the fixed twin of published-pointer.cpp: the pointer is a std::atomic, published with a release store
 * ub: no
 * fixes: published-pointer.cpp
 * fixed-line: 32, 29
 * link: -pthread
 */
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

struct Message {
    int id;
    int payload;
};

static std::atomic<Message *> published;

int main(int argc, char **)
{
    static Message m;
    std::thread writer([argc] {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        m.id = argc;
        m.payload = 42;
        published = &m;
    });
    Message *p;
    while ((p = published) == nullptr) {
    }
    std::printf("%d %d\n", p->id, p->payload);
    writer.join();
    return 0;
}
