// SPDX-License-Identifier: LGPL-3.0-or-later
// fork() safety: a process must not be copied while one of its threads is
// inside bigmul, since the child would inherit bigmul's pool and cache
// mutexes locked by a thread it does not have. Every call into bigmul holds
// a shared lock; fork() takes it exclusively (pthread_atfork), so it waits
// for the calls in flight and the child starts with every mutex free. In the
// child, bigmul's pool has no worker threads (fork copies only the calling
// thread): its jobs run on the calling thread, still exact.
#pragma once

#include <pthread.h>

namespace bigmul::preload {

// Registers the fork handlers; called once by the preload's constructor.
void install_fork_handlers();

// Held for the duration of one call into bigmul.
class call_scope {
 public:
  call_scope();
  ~call_scope();
  call_scope(const call_scope&) = delete;
  call_scope& operator=(const call_scope&) = delete;
};

}  // namespace bigmul::preload
