# The EXAMPLES of ev-extract(1) work as written.
. "$CASEDIR/../examples.sh"
mkdir manuals
python3 "$CASEDIR/mkpdf.py" fonts manuals/pump.pdf
examples ev-extract.1 > ex.sh
cat ex.sh
sh ex.sh
