/* lexicon.c: stop lists and word lists.  See lexicon.h. */
#include "lexicon.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "strmap.h"

#define MAX_WORD 32		/* longest word compared (bytes), NUL included */

static const char *const codes[EV_LEX_NLANG][4] = {
	{ "en", "eng", NULL, NULL },
	{ "fr", "fra", "fre", NULL },
	{ "de", "deu", "ger", NULL },
	{ "es", "spa", NULL, NULL },
	{ "it", "ita", NULL, NULL },
	{ "pt", "por", NULL, NULL },
	{ "nl", "nld", "dut", NULL },
};

/* The word lists of each language, tried in order, and their packages. */
static const char *const dict_files[EV_LEX_NLANG][3] = {
	{ "american-english", "british-english", NULL },
	{ "french", NULL, NULL },
	{ "ngerman", "ogerman", NULL },
	{ "spanish", NULL, NULL },
	{ "italian", NULL, NULL },
	{ "portuguese", "brazilian", NULL },
	{ "dutch", NULL, NULL },
};
static const char *const dict_packages[EV_LEX_NLANG] = {
	"wamerican", "wfrench", "wngerman", "wspanish", "witalian", "wportuguese", "wdutch"
};

/* Function words, lowercased, separated by spaces. */
static const char *const stops[EV_LEX_NLANG] = {
	/* English: as the tokeniser's list (token.c), as words */
	"a about above after again against all also am an and any are as at be because been before "
	"being below between both but by can could did do does doing down during each either etc few "
	"for from further had has have having he her here hers herself him himself his how however i "
	"if in into is it its itself just may me might more most must my myself no nor not of off on "
	"once only or other ought our ours ourselves out over own same shall she should so some such "
	"than that the their theirs them themselves then there these they this those through thus to "
	"too under until up upon us very was we were what when where whether which while who whom "
	"whose why will with within without would yet you your yours yourself yourselves",
	/* French */
	"a à afin ai aie aient aies ait alors après as au aucun aucune aussi autre autres aux avaient "
	"avais avait avant avec avez aviez avions avoir avons ayant c ça car ce ceci cela celle celles "
	"celui cependant ces cet cette ceux chaque chez comme d dans de depuis des donc dont du elle "
	"elles en encore entre es est et étaient étais était étant été êtes étions être eu eux il ils "
	"j je jusqu l la le les leur leurs lors lorsqu lorsque lui m ma mais me même mes moi mon n ne "
	"ni nos notre nous on ont or ou où par parce pas pendant peu peut plus pour pourquoi puis qu "
	"quand que quel quelle quelles quels qui s sa sans se sera seront ses si sinon soi soit son "
	"sont sous suis sur t ta te tes toi ton tous tout toute toutes très tu un une vers voici voilà "
	"vos votre vous y",
	/* German */
	"aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes "
	"auch auf aus bei beim bin bis bist da damit dann das dass daß dein deine deinem deinen deiner "
	"dem den denn der deren des dessen dich die dies diese diesem diesen dieser dieses dir doch dort "
	"du durch ein eine einem einen einer eines er es etwas euch euer eure für gegen gewesen hab "
	"habe haben hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres "
	"im in indem ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes kann kein keine "
	"keinem keinen keiner man mein meine meinem meinen meiner mich mir mit muss musste nach nicht "
	"nichts noch nun nur ob oder ohne sehr sein seine seinem seinen seiner seines sich sie sind so "
	"soll sollte sondern sonst über um und uns unser unsere unserem unseren unter vom von vor "
	"während war waren warst was weil welche welchem welchen welcher welches wenn werde werden wie "
	"wieder wir wird wirst wo zu zum zur zwar zwischen",
	/* Spanish */
	"a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante "
	"e el él ella ellas ellos en entre era eran es esa esas ese eso esos esta está estaba están "
	"estar estas este esto estos fue fueron ha habia había han has hasta hay he hemos la las le les "
	"lo los más me mi mí mis mucho muy nada ni no nos nosotros o os otra otras otro otros para "
	"pero poco por porque que qué quien quienes se sea ser si sí sin sobre son su sus también tan "
	"tanto te tiene tienen todo todos tu tú tus un una uno unos y ya yo",
	/* Italian */
	"a abbiamo ad agli ai al alla alle allo anche avere c che chi ci come con contro cui da dai "
	"dal dalla dalle dallo degli dei del della delle dello di dove e è ed era erano essere gli ha "
	"hai hanno ho i il in io l la le lei li lo loro lui ma mi mia mie miei mio ne negli nei nel "
	"nella nelle nello noi non nostra nostre nostri nostro o per perché più quale quanta quante "
	"quanti quanto quella quelle quelli quello questa queste questi questo se sei si sia siamo "
	"siete sono sta stata stato su sua sue sugli sui sul sulla sulle sullo suo suoi ti tra tu tua "
	"tue tuo tuoi tutti tutto un una uno vi voi",
	/* Portuguese */
	"a à ao aos aquela aquelas aquele aqueles aquilo as às até com como da das de dela delas dele "
	"deles depois do dos e é ela elas ele eles em entre era eram essa essas esse esses esta está "
	"estas este estes eu foi for foram há isso isto já lhe lhes mais mas me mesmo meu meus minha "
	"minhas muito na não nas nem no nos nós nossa nossas nosso nossos num numa o os ou para pela "
	"pelas pelo pelos por qual quando que quem se sem ser seu seus só sua suas são também te tem "
	"teu teus tu tua tuas um uma você vocês",
	/* Dutch */
	"aan al alles als altijd andere ben bij daar dan dat de der deze die dit doch doen door dus "
	"een eens en er ge geen geweest haar had heb hebben heeft hem het hier hij hoe hun iemand iets "
	"ik in is ja je kan kon kunnen maar me meer men met mij mijn moet na naar niet niets nog nu of "
	"om omdat onder ons ook op over reeds te tegen toch toen tot u uit uw van veel voor want waren "
	"was wat werd wezen wie wil worden wordt zal ze zelf zich zij zijn zo zonder zou",
};

struct dict {
	int tried;		/* opened, or found missing */
	const char *p;		/* the mapped list, NULL when there is none */
	size_t len;
};

struct ev_lex {
	struct ev_strmap stops;	/* the stop words, numbered as in langs */
	unsigned *langs;	/* per stop word: the languages it is one of (EV_LEX_BIT) */
	size_t caplangs;
	size_t longest;		/* bytes of the longest stop word */
	/* per length: the classes (byte_class()) of the stop words' first and
	 * last bytes, which turn most other words away before a look-up */
	uint32_t first[MAX_WORD], last[MAX_WORD];
	/* and per length and class of the first byte, the classes of the second:
	 * the first two bytes of the stop words of each length, which turn
	 * away most words the first and last let through (the stop lists of
	 * every language hold most first and last letters of short words) */
	uint32_t second[MAX_WORD][32];
	struct dict dicts[EV_LEX_NLANG];
	char *dir;
};

/* word[0..len) lowercased into out (MAX_WORD bytes, NUL-terminated):
 * ev_lex_fold().  Returns its length, or -1 when it is too long. */
static int
lower(const char *word, size_t len, char *out)
{
	if (len == 0 || len >= MAX_WORD)
		return -1;
	for (size_t i = 0; i < len; i++)
		out[i] = (char)ev_lex_fold(i > 0 ? (unsigned char)word[i - 1] : 0,
		    (unsigned char)word[i]);
	out[len] = '\0';
	return (int)len;
}

/* A byte's class, 0 to 31: an ASCII letter's (either case alike), or one
 * of four for the bytes of other characters (by their last two bits, which
 * lower()'s + 32 keeps): a byte and its lowercase have one class. */
static inline unsigned
byte_class(unsigned char c)
{
	return c < 0x80 ? (unsigned)(c | 0x20) & 31u : 27u + (c & 3u);
}

struct ev_lex *
ev_lex_open(const char *dict_dir, struct ev_err *err)
{
	struct ev_lex *lex = calloc(1, sizeof(*lex));

	if (lex == NULL ||
	    (lex->dir = strdup(dict_dir != NULL ? dict_dir : "/usr/share/dict")) == NULL)
		goto nomem;
	for (int l = 0; l < EV_LEX_NLANG; l++) {
		const char *s = stops[l];

		while (*s != '\0') {
			size_t n = strcspn(s, " ");	/* every word shorter than MAX_WORD */
			int32_t id;
			int added;

			if (ev_grow(&lex->langs, &lex->caplangs, ev_strmap_count(&lex->stops),
			    sizeof *lex->langs, 1024) == -1 ||
			    (id = ev_strmap_add(&lex->stops, s, n, &added)) == -1)
				goto nomem;
			if (added)
				lex->langs[id] = 0;
			if (n > lex->longest)
				lex->longest = n;
			if (n > 0) {
				lex->first[n] |= 1u << byte_class((unsigned char)s[0]);
				lex->last[n] |= 1u << byte_class((unsigned char)s[n - 1]);
			}
			if (n > 1)
				lex->second[n][byte_class((unsigned char)s[0])] |=
				    1u << byte_class((unsigned char)s[1]);
			lex->langs[id] |= EV_LEX_BIT(l);
			s += n;
			s += *s == ' ';
		}
	}
	return lex;
nomem:
	ev_lex_close(lex);
	ev_err_nomem(err);
	return NULL;
}

void
ev_lex_close(struct ev_lex *lex)
{
	if (lex == NULL)
		return;
	for (int l = 0; l < EV_LEX_NLANG; l++)
		if (lex->dicts[l].p != NULL)
			munmap((void *)lex->dicts[l].p, lex->dicts[l].len);
	ev_strmap_release(&lex->stops);
	free(lex->langs);
	free(lex->dir);
	free(lex);
}

int
ev_lex_lang(const char *code, size_t len)
{
	char c[4];
	size_t n = 0;

	while (n < len && n < sizeof(c) - 1 && code[n] != '-' && code[n] != '_') {
		c[n] = (char)(code[n] >= 'A' && code[n] <= 'Z' ? code[n] + 32 : code[n]);
		n++;
	}
	if (n < len && code[n] != '-' && code[n] != '_')
		return -1;
	c[n] = '\0';
	for (int l = 0; l < EV_LEX_NLANG; l++)
		for (int i = 0; codes[l][i] != NULL; i++)
			if (strcmp(codes[l][i], c) == 0)
				return l;
	return -1;
}

const char *
ev_lex_code(int lang)
{
	return lang >= 0 && lang < EV_LEX_NLANG ? codes[lang][0] : "?";
}

const char *
ev_lex_dict_package(int lang)
{
	return lang >= 0 && lang < EV_LEX_NLANG ? dict_packages[lang] : "?";
}

static inline unsigned
stop_langs(const struct ev_lex *lex, const char *word, size_t len)
{
	char w[MAX_WORD];
	int32_t id;
	int n;
	unsigned first;

	if (len == 0 || len > lex->longest)	/* most words of a text: no stop word */
		return 0;
	/* the word's first, last and second bytes, as a stop word's (their
	 * classes are those of its lowercase's) */
	first = byte_class((unsigned char)word[0]);
	if (!((lex->first[len] >> first) &
	    (lex->last[len] >> byte_class((unsigned char)word[len - 1])) & 1u))
		return 0;
	if (len > 1 && !((lex->second[len][first] >> byte_class((unsigned char)word[1])) & 1u))
		return 0;
	if ((n = lower(word, len, w)) < 0 || (id = ev_strmap_find(&lex->stops, w, (size_t)n)) < 0)
		return 0;
	return lex->langs[id];
}

unsigned
ev_lex_stop_langs(const struct ev_lex *lex, const char *word, size_t len)
{
	return stop_langs(lex, word, len);
}

/* Bytes of a word (ev_lex_count_stops()): ASCII letters and every byte of a
 * non-ASCII character. */
#define L16 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
static const unsigned char word_byte[256] = {
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1,
	['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
	['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1,
	['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1,
	['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
	['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
	['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
	[0x80] = L16, L16, L16, L16, L16, L16, L16, L16
};
#undef L16

void
ev_lex_count_stops(const struct ev_lex *lex, const char *text, size_t n, unsigned *counts)
{
	size_t i = 0;

	/* each word of a text is tested (ingest detects every chunk's
	 * language): inline, where most are turned away by their length and
	 * their first and last bytes */
	while (i < n) {
		size_t s;

		while (i < n && !word_byte[(unsigned char)text[i]])
			i++;
		s = i;
		while (i < n && word_byte[(unsigned char)text[i]])
			i++;
		if (i > s + 1)
			for (unsigned langs = stop_langs(lex, text + s, i - s); langs != 0;
			    langs &= langs - 1)
				counts[__builtin_ctz(langs)]++;
	}
}

int
ev_lex_guess(const unsigned *counts)
{
	int best = EV_LEX_EN;

	for (int l = 0; l < EV_LEX_NLANG; l++)
		if (counts[l] >= 3 && counts[l] > counts[best])
			best = l;
	return best;
}

/* Map lang's word list, once.  Returns 0 (lex->dicts[lang].p NULL when the
 * language has none), or -1 with *err set. */
static int
open_dict(struct ev_lex *lex, int lang, struct ev_err *err)
{
	struct dict *d = &lex->dicts[lang];
	struct stat sb;
	char path[4096];
	int fd = -1;

	if (d->tried)
		return 0;
	for (int i = 0; dict_files[lang][i] != NULL && fd < 0; i++) {
		snprintf(path, sizeof(path), "%s/%s", lex->dir, dict_files[lang][i]);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 && errno != ENOENT)
			return ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot open the word list %s: %s",
			    path, strerror(errno));
	}
	d->tried = 1;
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) == -1) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot read the word list %s: %s", path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		ev_err_set(err, EV_EXIT_RUNTIME, NULL, "the word list %s is not a file", path);
		close(fd);
		return -1;
	}
	if (sb.st_size > 0) {
		void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED) {
			ev_err_set(err, EV_EXIT_RUNTIME, NULL, "cannot map the word list %s: %s", path,
			    strerror(errno));
			close(fd);
			return -1;
		}
		d->p = p;
		d->len = (size_t)sb.st_size;
	}
	close(fd);
	return 0;
}

/* Whether w[0..n) is a line of the list p[0..len), its first letter also
 * matching in capitals when first_either (one pass for "paris" and
 * "Paris"). */
static int
has_line(const char *p, size_t len, const char *w, size_t n, int first_either)
{
	const char *q, *end = p + len;
	size_t skip = first_either && n > 1 ? 1 : 0;	/* search without the first letter */

	for (q = p + skip; (q = memmem(q, (size_t)(end - q), w + skip, n - skip)) != NULL; q++) {
		const char *start = q - skip;

		if (q + n - skip != end && q[n - skip] != '\n' && q[n - skip] != '\r')
			continue;
		if (skip && *start != w[0] && !(w[0] >= 'a' && w[0] <= 'z' && *start == w[0] - 32))
			continue;
		if (start == p || start[-1] == '\n')
			return 1;
	}
	return 0;
}

int
ev_lex_is_word(struct ev_lex *lex, int lang, const char *word, size_t len, struct ev_err *err)
{
	struct dict *d;
	char w[MAX_WORD];
	int n;

	if (lang < 0 || lang >= EV_LEX_NLANG)
		return -1;
	if (open_dict(lex, lang, err) == -1)
		return -2;
	d = &lex->dicts[lang];
	if (d->p == NULL)	/* no list, or an empty one: nothing is known */
		return -1;
	if ((n = lower(word, len, w)) < 0)
		return 0;
	if (has_line(d->p, d->len, w, (size_t)n, 1))
		return 1;
	return memcmp(w, word, len) != 0 && has_line(d->p, d->len, word, len, 0);
}
