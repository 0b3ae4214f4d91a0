/* A keyed membership file whose secret is in a FIFO (which gives its content
 * once) loads, from a path and from bytes, and places keys exactly as a set
 * built in code with the same secret: the secret is read once, in one pass.
 * A relative secret.file in loaded bytes is found from the current folder.
 *
 * usage: test_fifo_secret SCRATCH_DIR */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static const uint8_t SECRET[16] = {0x3d, 0x81, 0x5a, 0xe2, 0x07, 0xc4, 0x69, 0xfb,
                                   0x12, 0x9e, 0x40, 0xb7, 0x2c, 0xd5, 0x78, 0x06};
static const char *SECRET_HEX = "3d815ae207c469fb129e40b72cd57806\n";
static char fifo[4200];
static int writes = 0;

/* Opens the FIFO for writing (which waits for a reader), writes the secret
 * once and closes it, so the reader sees end-of-file after the secret. */
static void *feed(void *arg) {
  int fd = open(fifo, O_WRONLY);
  (void)arg;
  if (fd < 0) return NULL;
  if (write(fd, SECRET_HEX, strlen(SECRET_HEX)) == (ssize_t)strlen(SECRET_HEX)) writes++;
  close(fd);
  return NULL;
}

static longstraw_rendezvous *in_code(void) {
  longstraw_rendezvous *r = NULL;
  const char *ids[] = {"a", "b", "c", "d", "e"};
  size_t i;
  CHECK_OK(new_flat(0, SECRET, sizeof SECRET, LONGSTRAW_PLACEMENT_VERSION, &r));
  for (i = 0; i < 5; i++) CHECK_OK(longstraw_rendezvous_add(r, (const uint8_t *)ids[i], 1, 1.0));
  return r;
}

/* 1 when both sets are keyed and name the same owner id for 500 keys. */
static int same_owners(const longstraw_rendezvous *x, const longstraw_rendezvous *y) {
  const longstraw_snapshot *a = NULL, *b = NULL;
  uint32_t keyed_a = 0, keyed_b = 0;
  int i, same = 1;
  CHECK_OK(longstraw_rendezvous_snapshot(x, &a));
  CHECK_OK(longstraw_rendezvous_snapshot(y, &b));
  CHECK_OK(longstraw_snapshot_is_keyed(a, &keyed_a));
  CHECK_OK(longstraw_snapshot_is_keyed(b, &keyed_b));
  for (i = 0; i < 500 && same; i++) {
    char key[32];
    uint32_t ia, ib;
    const uint8_t *ida, *idb;
    size_t la, lb;
    snprintf(key, sizeof key, "user:%d", i);
    if (longstraw_snapshot_owner(a, (const uint8_t *)key, strlen(key), &ia, &ida, &la) != LONGSTRAW_OK ||
        longstraw_snapshot_owner(b, (const uint8_t *)key, strlen(key), &ib, &idb, &lb) != LONGSTRAW_OK ||
        la != lb || memcmp(ida, idb, la) != 0) {
      same = 0;
    }
  }
  longstraw_snapshot_free(a);
  longstraw_snapshot_free(b);
  return same && keyed_a == 1 && keyed_b == 1;
}

/* Loads `text` (from the file at `path` when it is not NULL, else from the
 * bytes) while another thread writes the secret into the FIFO once. */
static longstraw_rendezvous *load_with_fifo(const char *path, const char *text) {
  pthread_t writer;
  longstraw_rendezvous *r = NULL;
  longstraw_result rc;
  int before = writes;
  CHECK(pthread_create(&writer, NULL, feed, NULL) == 0);
  rc = path ? longstraw_rendezvous_load_file(path, &r) : longstraw_rendezvous_load_bytes((const uint8_t *)text, strlen(text), &r);
  CHECK_OK(rc);
  if (rc != LONGSTRAW_OK) {
    fprintf(stderr, "  %s\n", longstraw_last_error_message());
    /* Unblock the writer if the library never opened the FIFO. */
    close(open(fifo, O_RDONLY | O_NONBLOCK));
  }
  CHECK(pthread_join(writer, NULL) == 0);
  CHECK(writes == before + 1);
  return r;
}

int main(int argc, char **argv) {
  char path[4200], text[8192], dir[4096];
  const char *nodes = "\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n"
                      "[[nodes]]\nid = \"d\"\n[[nodes]]\nid = \"e\"\n";
  longstraw_rendezvous *code, *r;
  FILE *f;
  if (argc != 2) {
    fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  /* A library that read the FIFO twice would wait forever: fail instead. */
  alarm(60);
  if (chdir(argv[1]) != 0 || !getcwd(dir, sizeof dir)) {
    perror(argv[1]);
    return 2;
  }
  snprintf(fifo, sizeof fifo, "%s/secret.fifo", dir);
  unlink(fifo);
  if (mkfifo(fifo, 0600) != 0) {
    perror("mkfifo");
    return 2;
  }
  code = in_code();

  /* From a path: the secret file is named relative to the membership file,
   * whatever the current folder. */
  CHECK(chdir("/") == 0);
  snprintf(path, sizeof path, "%s/keyed.toml", dir);
  snprintf(text, sizeof text, "[secret]\nfile = \"secret.fifo\"\n%s", nodes);
  f = fopen(path, "wb");
  CHECK(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0);
  r = load_with_fifo(path, NULL);
  CHECK(r != NULL && same_owners(r, code));
  longstraw_rendezvous_free(r);
  CHECK(chdir(dir) == 0);

  /* From bytes: a relative secret file is found from the current folder. */
  r = load_with_fifo(NULL, text);
  CHECK(r != NULL && same_owners(r, code));
  longstraw_rendezvous_free(r);

  longstraw_rendezvous_free(code);
  unlink(fifo);
  return check_report("test_fifo_secret");
}
