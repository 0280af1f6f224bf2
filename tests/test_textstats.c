/* test_textstats.c: BM25's statistics summed over stores (textstats.h). */
#include <sys/stat.h>

#include "test_util.h"

#include "textstats.h"

#define A "evkit-text-stats\t4\nrows\t3\ntokens\t30\nsquares\t400\ntitled\t2\nsectioned\t0\n" \
	"term\twing\t2\nterm\tflow\t1\n" \
	"phrase\tflat plate\t1\nlanguage\ten\t2\n"
#define B "evkit-text-stats\t4\nrows\t2\ntokens\t12\nsquares\t80\ntitled\t0\nsectioned\t1\n" \
	"term\tflow\t2\nterm\tzeta\t1\n" \
	"phrase\tflat plate\t0\nphrase\tshear flow\t1\n"

static struct ev_textstats *
read_text(const char *text, struct ev_err *err, int *r)
{
	char path[] = "/tmp/ev-textstats-XXXXXX";
	struct ev_textstats *s = ev_textstats_new(err);

	cr_assert_not_null(s);
	tu_tmpfile(path, 0, text, strlen(text));
	*r = ev_textstats_read(s, path, err);
	unlink(path);
	return s;
}

Test(textstats, two_files_sum_to_the_statistics_of_both)
{
	char pa[] = "/tmp/ev-textstats-XXXXXX", pb[] = "/tmp/ev-textstats-XXXXXX";
	struct ev_err err = { 0 };
	struct ev_textstats *s = ev_textstats_new(&err);

	tu_tmpfile(pa, 0, A, strlen(A));
	tu_tmpfile(pb, 0, B, strlen(B));
	cr_assert_eq(ev_textstats_read(s, pa, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_textstats_read(s, pb, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_textstats_rows(s), 5);
	cr_assert_eq(ev_textstats_tokens(s), 42);
	cr_assert_eq(ev_textstats_squares(s), 480);
	cr_assert_eq(ev_textstats_titled(s), 2);
	cr_assert_eq(ev_textstats_sectioned(s), 1);
	cr_assert_eq(ev_textstats_get(s, EV_STATS_TERM, "flow"), 3);
	cr_assert_eq(ev_textstats_get(s, EV_STATS_TERM, "wing"), 2);
	cr_assert_eq(ev_textstats_get(s, EV_STATS_TERM, "zeta"), 1);
	cr_assert_eq(ev_textstats_get(s, EV_STATS_TERM, "plate"), -1, "absent: -1, not 0");
	cr_assert_eq(ev_textstats_get(s, EV_STATS_PHRASE, "flat plate"), 1);
	cr_assert_eq(ev_textstats_get(s, EV_STATS_PHRASE, "shear flow"), 1);
	cr_assert_eq(ev_textstats_get(s, EV_STATS_LANGUAGE, "en"), 2);
	unlink(pa);
	unlink(pb);
	ev_textstats_free(s);
}

Test(textstats, keys_come_in_byte_order_each_once)
{
	struct ev_err err = { 0 };
	struct ev_textstats *s = ev_textstats_new(&err);
	long long n;

	cr_assert_eq(ev_textstats_add(s, EV_STATS_TERM, "\xc3\xa9t\xc3\xa9", 5, 1, &err), 0);
	cr_assert_eq(ev_textstats_add(s, EV_STATS_TERM, "zz", 2, 1, &err), 0);
	cr_assert_eq(ev_textstats_add(s, EV_STATS_TERM, "abc", 2, 4, &err), 0);	/* "ab" */
	cr_assert_eq(ev_textstats_add(s, EV_STATS_TERM, "zz", 2, 2, &err), 0);
	cr_assert_eq(ev_textstats_count(s, EV_STATS_TERM), 3);
	cr_assert_str_eq(ev_textstats_key(s, EV_STATS_TERM, 0, &n), "ab");
	cr_assert_eq(n, 4);
	cr_assert_str_eq(ev_textstats_key(s, EV_STATS_TERM, 1, &n), "zz");
	cr_assert_eq(n, 3);
	cr_assert_str_eq(ev_textstats_key(s, EV_STATS_TERM, 2, &n), "\xc3\xa9t\xc3\xa9",
	    "bytes compared unsigned, as SQLite orders text");
	ev_textstats_free(s);
}

Test(textstats, written_file_reads_back_the_same)
{
	char path[] = "/tmp/ev-textstats-XXXXXX";
	struct ev_err err = { 0 };
	int r, fd;
	struct ev_textstats *s = read_text(A, &err, &r), *t;
	FILE *f;

	cr_assert_eq(r, 0, "%s", err.msg);
	cr_assert((fd = mkstemp(path)) >= 0);
	cr_assert_not_null(f = fdopen(fd, "w"));
	cr_assert_eq(ev_textstats_write(s, f, path, &err), 0);
	fclose(f);
	t = ev_textstats_new(&err);
	cr_assert_eq(ev_textstats_read(t, path, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_textstats_rows(t), 3);
	cr_assert_eq(ev_textstats_squares(t), 400);
	cr_assert_eq(ev_textstats_titled(t), 2);
	cr_assert_eq(ev_textstats_get(t, EV_STATS_TERM, "flow"), 1);
	cr_assert_eq(ev_textstats_get(t, EV_STATS_PHRASE, "flat plate"), 1);
	cr_assert_eq(ev_textstats_count(t, EV_STATS_TERM), 2);
	unlink(path);
	ev_textstats_free(s);
	ev_textstats_free(t);
}

struct bad_file {
	const char *text, *where, *msg;
};

/* Each of the n files bad[] refused as bad usage, naming its line. */
static void
refused(const struct bad_file *bad, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ev_err err = { 0 };
		int r;
		struct ev_textstats *s = read_text(bad[i].text, &err, &r);

		cr_assert_eq(r, -1, "case %zu accepted", i);
		cr_assert_eq(err.code, EV_EXIT_USAGE, "case %zu: code %d", i, err.code);
		cr_assert_not_null(strstr(err.where, bad[i].where), "case %zu: where '%s'", i, err.where);
		cr_assert_not_null(strstr(err.msg, bad[i].msg), "case %zu: '%s'", i, err.msg);
		ev_textstats_free(s);
	}
}

Test(textstats, bad_files_are_refused_naming_the_line)
{
	static const struct bad_file bad[] = {
		{ "", "", "empty" },
		{ "rows\t3\n", ":1", "not a statistics file" },
		{ "evkit-text-stats\t4\nsquares\t-4\n", ":2", "squares takes a count" },
		{ "evkit-text-stats\t4\nrows\t3x\n", ":2", "rows takes a count" },
		{ "evkit-text-stats\t4\nterm\twing\n", ":2", "term takes a key and a count" },
		{ "evkit-text-stats\t4\nterm\t\t3\n", ":2", "term takes a key and a count" },
		{ "evkit-text-stats\t4\nterm\twing\t-1\n", ":2", "bad count" },
		{ "evkit-text-stats\t4\nterm\twing\t99999999999999999999\n", ":2", "bad count" },
		{ "evkit-text-stats\t4\ndoc\tx\t1\n", ":2", "unknown entry 'doc'" },
		{ "evkit-text-stats\t4\nterm\ta\t1\t2\n", ":2", "more than 3 fields" },
	};

	refused(bad, sizeof bad / sizeof bad[0]);
}

#define TOTALS "evkit-text-stats\t4\nrows\t3\ntokens\t30\nsquares\t400\ntitled\t2\nsectioned\t0\n"

/* A key twice in one file was summed, as two files' are: a line repeated
 * (a file put together by hand, a copy pasted twice) counted its chunks
 * twice.  The second line is named, and the first. */
Test(textstats, a_key_given_twice_in_one_file_is_refused_naming_both_lines)
{
	static const struct bad_file bad[] = {
		{ "evkit-text-stats\t4\nrows\t3\ntokens\t30\nrows\t3\n", ":4",
		    "'rows' again (first at line 2): a statistics file counts each once" },
		{ TOTALS "term\tflow\t1\nterm\tflow\t1\n", ":8", "term 'flow' again (first at line 7)" },
		{ TOTALS "term\twing\t1\nterm\tflow\t1\nterm\twing\t1\n", ":9",
		    "term 'wing' again (first at line 7)" },
		{ TOTALS "term\tb\t1\nterm\ta\t1\nterm\ta\t2\nterm\tb\t1\n", ":9",
		    "term 'a' again (first at line 8)" },
		{ TOTALS "phrase\t[*] flat plate\t1\nterm\tflat\t1\nphrase\t[*] flat plate\t1\n", ":9",
		    "phrase '[*] flat plate' again (first at line 7)" },
		{ TOTALS "language\ten\t2\nchunk-language\ten\t3\nlanguage\ten\t1\n", ":9",
		    "language 'en' again (first at line 7)" },
	};

	refused(bad, sizeof bad / sizeof bad[0]);
}

/* Two files (two stores) are summed, their keys and totals; a sum past
 * what a count holds is refused. */
Test(textstats, the_same_key_in_two_files_is_summed)
{
	char pa[] = "/tmp/ev-textstats-XXXXXX", pb[] = "/tmp/ev-textstats-XXXXXX";
	static const char big[] = "evkit-text-stats\t4\nrows\t9223372036854775807\n";
	struct ev_err err = { 0 };
	struct ev_textstats *s = ev_textstats_new(&err);

	tu_tmpfile(pa, 0, TOTALS "term\tflow\t1\n", strlen(TOTALS "term\tflow\t1\n"));
	cr_assert_eq(ev_textstats_read(s, pa, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_textstats_read(s, pa, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_textstats_get(s, EV_STATS_TERM, "flow"), 2);
	cr_assert_eq(ev_textstats_rows(s), 6);
	tu_tmpfile(pb, 0, big, strlen(big));
	cr_assert_eq(ev_textstats_read(s, pb, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	cr_assert_not_null(strstr(err.where, ":2"), "%s", err.where);
	cr_assert_not_null(strstr(err.msg, "rows: the sum is too large"), "%s", err.msg);
	unlink(pa);
	unlink(pb);
	ev_textstats_free(s);
}

Test(textstats, earlier_versions_and_counts_past_the_rows_are_refused)
{
	static const struct bad_file bad[] = {
		{ "evkit-text-stats\t1\nrows\t3\n", ":1", "made by an earlier evkit" },
		{ "evkit-text-stats\t2\nrows\t3\n", ":1", "do not say their languages" },
		{ "evkit-text-stats\t3\nrows\t3\n", ":1",
		    "without the counts of the chunks that have titles: make them again" },
		{ "evkit-text-stats\t5\nrows\t3\n", ":1",
		    "its first line is not 'evkit-text-stats<TAB>4'" },
		{ "evkit-text-stats\t4\nrows\t3\ntokens\t3\nsquares\t3\ntitled\t4\nsectioned\t0\n",
		    "", "titled 4 is more than the 3 rows counted" },
		{ "evkit-text-stats\t4\nrows\t3\ntokens\t3\nsquares\t3\ntitled\t0\nsectioned\t9\n",
		    "", "sectioned 9 is more than the 3 rows counted" },
		{ "evkit-text-stats\t4\nrows\t3\ntokens\t3\nsquares\t3\ntitled\t0\n", "",
		    "no 'sectioned' line" },
	};

	refused(bad, sizeof bad / sizeof bad[0]);
}

Test(textstats, an_empty_set_has_nothing)
{
	struct ev_err err = { 0 };
	struct ev_textstats *s = ev_textstats_new(&err);

	cr_assert_eq(ev_textstats_get(s, EV_STATS_PHRASE, "flat plate"), -1);
	cr_assert_eq(ev_textstats_count(s, EV_STATS_TERM), 0);
	cr_assert_eq(ev_textstats_rows(s), 0);
	ev_textstats_free(s);
}

Test(textstats, a_missing_file_is_bad_usage)
{
	struct ev_err err = { 0 };
	struct ev_textstats *s = ev_textstats_new(&err);

	cr_assert_eq(ev_textstats_read(s, "/nonexistent/x.stats", &err), -1);
	cr_assert_eq(err.code, EV_EXIT_USAGE);
	ev_textstats_free(s);
}

/* Saved through a temporary file renamed into place, with a new file's mode;
 * a directory that cannot be written leaves nothing behind. */
Test(textstats, saved_whole_with_a_new_file_s_mode_or_not_at_all)
{
	char dir[] = "/tmp/ev-textstats-dir-XXXXXX", path[128];
	struct ev_err err = { 0 };
	struct ev_textstats *s = ev_textstats_new(&err), *t = ev_textstats_new(&err);
	struct stat sb;
	mode_t mask = umask(022);
	char a[] = "/tmp/ev-textstats-XXXXXX", b[] = "/tmp/ev-textstats-XXXXXX";

	cr_assert_not_null(mkdtemp(dir));
	tu_tmpfile(a, 0, A, strlen(A));
	tu_tmpfile(b, 0, B, strlen(B));
	const char *const files[] = { a, b };

	cr_assert_eq(ev_textstats_read_all(s, files, 2, &err), 0, "%s", err.msg);
	snprintf(path, sizeof path, "%s/sum.stats", dir);
	cr_assert_eq(ev_textstats_save(s, path, &err), 0, "%s", err.msg);
	cr_assert_eq(stat(path, &sb), 0);
	cr_assert_eq(sb.st_mode & 0777, 0644);
	cr_assert_eq(ev_textstats_read(t, path, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_textstats_rows(t), 5);
	cr_assert_eq(ev_textstats_get(t, EV_STATS_TERM, "flow"), 3);
	snprintf(path, sizeof path, "%s/no/such/dir.stats", dir);
	cr_assert_eq(ev_textstats_save(s, path, &err), -1);
	cr_assert_eq(err.code, EV_EXIT_RUNTIME);
	cr_assert(strstr(err.msg, "cannot create") != NULL, "%s", err.msg);
	snprintf(path, sizeof path, "%s/sum.stats", dir);
	unlink(path);
	cr_assert_eq(rmdir(dir), 0);	/* no temporary file left */
	unlink(a), unlink(b);
	umask(mask);
	ev_textstats_free(s);
	ev_textstats_free(t);
}
