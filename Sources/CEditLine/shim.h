#ifndef SIFT_CEDITLINE_SHIM_H
#define SIFT_CEDITLINE_SHIM_H
// The system libedit (apt: libedit-dev): line editing and history for the REPL.
//
// el_set, el_get and history take their arguments as C varargs, which Swift cannot call; each
// function here is one of those calls with its arguments spelt out.
#include <stdio.h>
#include <histedit.h>

/// A function the prompt is read from before each line (and on every redraw).
typedef char *(*sift_el_prompt_function)(EditLine *);
/// An editor command bound to keys: returns one of the CC_ codes.
typedef unsigned char (*sift_el_command_function)(EditLine *, int);

/// The C library's standard streams (Swift 6 cannot read the mutable globals `stdin` and `stdout`).
static inline FILE *sift_el_standard_input(void) { return stdin; }
static inline FILE *sift_el_standard_output(void) { return stdout; }
static inline FILE *sift_el_standard_error(void) { return stderr; }

// MARK: Editing

/// Where libedit asks for the prompt text.
static inline int sift_el_set_prompt(EditLine *el, sift_el_prompt_function prompt) {
    return el_set(el, EL_PROMPT, prompt);
}

/// "emacs" or "vi" key bindings.
static inline int sift_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

/// Whether libedit handles SIGWINCH, SIGTSTP and SIGCONT itself while it reads a line (restoring
/// the terminal before the process stops, resizing after a change of window size).
static inline int sift_el_set_signal_handling(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}

/// Binds a key sequence ("^R", "^I", "\\e[A") to an editor command ("em-inc-search-prev").
static inline int sift_el_bind(EditLine *el, const char *keys, const char *command) {
    return el_set(el, EL_BIND, keys, command, (const char *)NULL);
}

/// Adds an editor command implemented by `function`, to bind to keys with `sift_el_bind`.
static inline int sift_el_add_function(EditLine *el, const char *name, const char *help, sift_el_command_function function) {
    return el_set(el, EL_ADDFN, name, help, function);
}

/// Disables the terminal's interrupt character (Ctrl-C) while a line is edited, so Ctrl-C reaches
/// the editor as a key instead of raising SIGINT; outside the editor the terminal is as it was
/// (Ctrl-Z and the other signal keys work throughout). `intr=` disables it in the editing
/// settings now; `-intr` keeps it disabled when libedit copies the terminal's characters again.
static inline int sift_el_disable_interrupt_character(EditLine *el) {
    return el_set(el, EL_SETTY, "-d", "-intr", "intr=", (const char *)NULL);
}

/// The history the editor's Up, Down and Ctrl-R go through.
static inline int sift_el_set_history(EditLine *el, History *history_) {
    return el_set(el, EL_HIST, history, history_);
}

/// A pointer kept for the editor's commands and prompt function.
static inline int sift_el_set_client_data(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *sift_el_client_data(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

// MARK: History

/// Keeps at most `size` entries (the oldest go first).
static inline int sift_history_set_size(History *history_, int size) {
    HistEvent event;
    return history(history_, &event, H_SETSIZE, size);
}

/// Whether an entry equal to the one before it is dropped.
static inline int sift_history_set_unique(History *history_, int unique) {
    HistEvent event;
    return history(history_, &event, H_SETUNIQUE, unique);
}

/// Adds an entry (the newest).
static inline int sift_history_enter(History *history_, const char *entry) {
    HistEvent event;
    return history(history_, &event, H_ENTER, entry);
}

/// Reads entries from a file libedit wrote; returns how many, or -1.
static inline int sift_history_load(History *history_, const char *path) {
    HistEvent event;
    return history(history_, &event, H_LOAD, path);
}

/// Writes every entry to a file (replacing it); returns how many, or -1.
static inline int sift_history_save(History *history_, const char *path) {
    HistEvent event;
    return history(history_, &event, H_SAVE, path);
}

/// How many entries there are.
static inline int sift_history_count(History *history_) {
    HistEvent event;
    if (history(history_, &event, H_GETSIZE) != 0) return 0;
    return event.num;
}

/// The entries, oldest first: calls `visit` with each entry and `context`.
static inline void sift_history_each(History *history_, void *context, void (*visit)(void *, const char *)) {
    HistEvent event;
    if (history(history_, &event, H_LAST) != 0) return;
    do {
        visit(context, event.str);
    } while (history(history_, &event, H_PREV) == 0);
}
#endif
