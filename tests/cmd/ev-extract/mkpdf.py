#!/usr/bin/env python3
"""Write the small PDFs the ev-extract tests read, by hand, byte for byte.

usage: mkpdf.py KIND OUT.pdf [N]
  fonts     3 pages: a title, headings by size and weight, body text (no outline)
  outline   2 pages, body-size headings named by the document's outline
  images    5 pages: text, two pages holding only an image, text, an image
  numbered  2 pages whose outline names numbered headings, and an entry no
            line holds, placed by its destination
  toc       a table of contents and a page number in headings' type
  many N    N pages of a heading and two paragraphs each (for timing)
  pagebreak 2 pages: a section whose paragraphs run on from page 1 to page 2,
            then a section of its own on page 2
  titled HEX  1 page under a heading, whose information dictionary's Title
            is the bytes HEX (a PDF hex string: "FEFF..." is UTF-16)

Fonts are the standard Helvetica and Helvetica-Bold (not embedded), so every
PDF reader places the glyphs alike; coordinates are PDF points, origin bottom
left, on a 612x792 page."""
import sys
import zlib


def esc(s):
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def page_stream(items):
    """items: (font 'R'|'B', size, x, y_from_top, text)."""
    out = []
    for font, size, x, y, text in items:
        out.append("BT /F%s %g Tf %g %g Td (%s) Tj ET" %
                   ("1" if font == "R" else "2", size, x, 792 - y, esc(text)))
    return "\n".join(out).encode("latin-1")


def write(path, pages, outline=None, image_pages=(), title=None, title_hex=None):
    objs = {}
    n_pages = len(pages)
    # 1 catalog, 2 pages, 3 F1, 4 F2, 5 image, 6 info, 7 outlines root,
    # then per page: page object, content stream; then outline items
    first = 8
    kids = []
    for i, items in enumerate(pages):
        pobj, cobj = first + 2 * i, first + 2 * i + 1
        kids.append(pobj)
        if i in image_pages:
            content = b"q 300 0 0 200 100 400 cm /Im1 Do Q"
        else:
            content = page_stream(items)
        objs[pobj] = ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                      "/Resources << /Font << /F1 3 0 R /F2 4 0 R >> "
                      "/XObject << /Im1 5 0 R >> >> /Contents %d 0 R >>" % cobj).encode()
        objs[cobj] = b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"
    cat = "<< /Type /Catalog /Pages 2 0 R"
    nxt = first + 2 * n_pages
    if outline:
        items = list(range(nxt, nxt + len(outline)))
        tops = {}
        for k, entry in zip(items, outline):
            tops[k] = entry[3] if len(entry) > 3 else 0
        outline = [e[:3] for e in outline]
        # a flat list of top-level entries, each with its children (level 2)
        ytop = tops
        tops = [k for k, (lvl, _, _) in zip(items, outline) if lvl == 1]
        for idx, (obj, (lvl, text, page)) in enumerate(zip(items, outline)):
            parent = 7
            if lvl == 2:
                parent = max(t for t in tops if t < obj)
            sibs = [k for k, (l2, _, _) in zip(items, outline) if l2 == lvl and
                    (lvl == 1 or max(t for t in tops if t < k) == parent)]
            pos = sibs.index(obj)
            d = "<< /Title (%s) /Parent %d 0 R /Dest [%d 0 R /XYZ 0 %g 0]" % (
                esc(text), parent, kids[page], 792 - ytop[obj])
            if pos > 0:
                d += " /Prev %d 0 R" % sibs[pos - 1]
            if pos + 1 < len(sibs):
                d += " /Next %d 0 R" % sibs[pos + 1]
            kids_of = [k for k, (l2, _, _) in zip(items, outline) if l2 == 2 and lvl == 1 and
                       max(t for t in tops if t < k) == obj]
            if kids_of:
                d += " /First %d 0 R /Last %d 0 R /Count %d" % (kids_of[0], kids_of[-1], len(kids_of))
            objs[obj] = (d + " >>").encode("latin-1")
        objs[7] = ("<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" %
                   (tops[0], tops[-1], len(outline))).encode()
        cat += " /Outlines 7 0 R"
    else:
        objs[7] = b"<< /Type /Outlines /Count 0 >>"
    objs[1] = (cat + " >>").encode()
    objs[2] = ("<< /Type /Pages /Kids [%s] /Count %d >>" %
               (" ".join("%d 0 R" % k for k in kids), n_pages)).encode()
    objs[3] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    objs[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    pix = zlib.compress(bytes((x * 7 + y * 3) % 256 for y in range(32) for x in range(32)))
    objs[5] = (b"<< /Type /XObject /Subtype /Image /Width 32 /Height 32 /ColorSpace /DeviceGray "
               b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % len(pix) + pix +
               b"\nendstream")
    objs[6] = ("<< /Title (%s) /Producer (mkpdf.py) >>" % esc(title or "")).encode("latin-1") \
        if title else b"<< /Producer (mkpdf.py) >>"
    if title_hex is not None:
        objs[6] = ("<< /Title <%s> /Producer (mkpdf.py) >>" % title_hex).encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for k in sorted(objs):
        offsets[k] = len(out)
        out += b"%d 0 obj\n" % k + objs[k] + b"\nendobj\n"
    xref = len(out)
    size = max(objs) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for k in range(1, size):
        out += b"%010d 00000 n \n" % offsets[k] if k in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    with open(path, "wb") as f:
        f.write(out)


def body(y, lines, size=11):
    return [("R", size, 72, y + i * 14, t) for i, t in enumerate(lines)]


def main():
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "fonts":
        p1 = [("B", 20, 72, 80, "Field Manual of the Pump")]
        p1 += [("B", 15, 72, 130, "Introduction")]
        p1 += body(160, ["The pump moves water from the well to the tank.",
                         "It runs on mains power and needs no priming."])
        p1 += body(210, ["Read this manual before the first start."])
        p2 = [("B", 15, 72, 80, "Maintenance")]
        p2 += [("B", 11, 72, 110, "Seals")]
        p2 += body(130, ["Replace the impeller seal every spring.",
                         "A worn seal drips under the housing."])
        p2 += [("B", 11, 72, 180, "Filters")]
        p2 += body(200, ["Rinse the intake filter monthly."])
        p3 = [("B", 15, 72, 60, "Troubleshooting a pump that"), ("B", 15, 72, 78, "will not start")]
        p3 += body(110, ["# not a heading, and 3 < 4 & \"quoted\"", "---"])
        p3 += [("R", 11, 72, 160, "Left column"), ("R", 11, 330, 160, "far right")]
        write(path, [p1, p2, p3])
    elif kind == "outline":
        p1 = body(80, ["Overview", "The valve opens at two bar."])
        p2 = body(80, ["Limits", "Never exceed six bar in the valve body."])
        write(path, [p1, p2], outline=[(1, "Overview", 0), (2, "Limits", 1)], title="Valve Notes")
    elif kind == "numbered":
        p1 = [("B", 15, 72, 80, "1 Overview")] + body(110, ["The valve opens at two bar."])
        p2 = body(80, ["Still about opening."])
        p2 += [("B", 13, 72, 200, "1.1 Limits")] + body(230, ["Never exceed six bar."])
        p2 += body(420, ["Tables follow."])
        write(path, [p1, p2], outline=[(1, "Overview", 0), (2, "Limits", 1, 195), (2, "Appendix", 1, 400)])
    elif kind == "toc":
        p1 = [("B", 15, 72, 80, "Contents")]
        p1 += [("B", 11, 72, 110, "1 Pumps . . . . . . . . 2"), ("B", 11, 72, 124, "2 Valves........ 3")]
        p1 += body(150, ["Body text of the first page.", "More body text here."])
        p1 += [("B", 15, 300, 700, "12")]
        p2 = [("B", 11, 72, 80, "Pumps")] + body(100, ["The pump is here."])
        write(path, [p1, p2])
    elif kind == "images":
        p1 = body(80, ["A page of words before the scan."])
        p4 = body(80, ["Words between the scans."])
        write(path, [p1, [], [], p4, []], image_pages=(1, 2, 4))
    elif kind == "pagebreak":
        p1 = [("B", 15, 72, 80, "Hive Inspection")]
        p1 += body(110, ["Open the hive on a warm still day.", "Lift each frame slowly."])
        p1 += body(700, ["Look for eggs and young larvae near the centre."])
        p2 = body(80, ["Count the varroa mites on a sugar roll sample."])
        p2 += [("B", 15, 72, 140, "Feeding")]
        p2 += body(170, ["Give thick syrup in autumn."])
        write(path, [p1, p2])
    elif kind == "titled":
        p1 = [("B", 15, 72, 80, "Valve Overview")] + body(110, ["The valve opens at two bar."])
        write(path, [p1], title_hex=sys.argv[3])
    elif kind == "many":
        n = int(sys.argv[3])
        pages = []
        for i in range(n):
            items = [("B", 15, 72, 80, "Chapter %d" % (i + 1))]
            for j in range(40):
                items += body(110 + j * 15, ["Line %d of page %d: the quick brown fox jumps over the lazy dog." % (j + 1, i + 1)])
            pages.append(items)
        write(path, pages)
    else:
        sys.exit("mkpdf.py: unknown kind '%s'" % kind)


main()
