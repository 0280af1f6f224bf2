/* test_expand.c: lib/lanes/expand.c -- Markdown link targets resolved against the
 * linking document's id. */
#include <criterion/criterion.h>

#include "expand.h"

static const char *
target(const char *from, const char *link)
{
	static struct ev_buf b = EV_BUF_INIT;

	return ev_expand_link_target(from, link, strlen(link), &b) == 0 ? b.p : NULL;
}

Test(expand, relative_links_resolve_against_the_linking_document)
{
	cr_assert_str_eq(target("docs/a.md", "b.md"), "docs/b.md");
	cr_assert_str_eq(target("docs/a.md", "./b.md#part"), "docs/b.md");
	cr_assert_str_eq(target("docs/a.md", "../top.md?x=1"), "top.md");
	cr_assert_str_eq(target("docs/a.md", "sub/../c/d.md"), "docs/c/d.md");
	cr_assert_str_eq(target("a.md", "b/c.md"), "b/c.md");
	cr_assert_str_eq(target("news-4", "news-3"), "news-3");
}

Test(expand, links_that_are_not_local_documents_are_refused)
{
	cr_assert_null(target("docs/a.md", "http://example.org/b.md"));
	cr_assert_null(target("docs/a.md", "mailto:x@y"));
	cr_assert_null(target("docs/a.md", "#section"));
	cr_assert_null(target("docs/a.md", "/etc/passwd"));
	cr_assert_null(target("docs/a.md", "../../out.md"));
	cr_assert_null(target("a.md", "../b.md"));
	cr_assert_null(target("docs/a.md", "."));
}
