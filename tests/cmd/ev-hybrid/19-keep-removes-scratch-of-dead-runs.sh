# A run killed with kill -9 cannot remove its scratch directory inside a
# --keep DIR (.ev-hybrid.XXXXXX): it stayed there for good.  A later run
# into DIR removes those of runs that are gone, by the owner file each run
# writes there ("PID START BOOT HOST"), and no other: a run whose process is
# alive (and started when its file says) is left alone, and so are another
# host's runs and a directory without an owner file younger than a day.
. "$CASEDIR/store.inc"
mkdir kept stub
# a run killed with kill -9 in its text lane: its directory is left
real=$(command -v ev-search-text)
cat >stub/ev-search-text <<END
#!/bin/sh
read -r pid rest <"\$(ls -d "$PWD"/kept/.ev-hybrid.*)/ev-hybrid.owner"
kill -9 "\$pid"
exec "$real" "\$@"
END
chmod +x stub/ev-search-text
EV_BIN=$PWD/stub "$hybrid" --db db --index idx --keep kept flutter >/dev/null 2>&1
echo "killed run: status $?, left $(ls -d kept/.ev-hybrid.* | wc -l) scratch directory"
mv kept/.ev-hybrid.* kept/.ev-hybrid.killed
# others made by hand: a process alive (sleep), dead (a shell that ended), a
# pid now another process's (the sleep, at another start time), another host
sleep 60 & live=$!
dead=$(sh -c 'echo $$')
start() { sed 's/.*) //' "/proc/$1/stat" | cut -d ' ' -f 20; }
boot=$(cat /proc/sys/kernel/random/boot_id)
host=$(uname -n)
own() { mkdir "kept/.ev-hybrid.$1"; echo "$2 $3 $boot $4" >"kept/.ev-hybrid.$1/ev-hybrid.owner"; }
own live "$live" "$(start $live)" "$host"
own dead "$dead" 12345 "$host"
own reused "$live" "$(($(start $live) - 1))" "$host"
own elsewhere "$dead" 12345 "other.$host"
own rebooted "$live" "$(start $live)" "$host"
echo "$live $(start $live) not-this-boot $host" >kept/.ev-hybrid.rebooted/ev-hybrid.owner
mkdir kept/.ev-hybrid.new kept/.ev-hybrid.old
touch -d '2 days ago' kept/.ev-hybrid.old
"$hybrid" --db db --index idx --keep kept flutter >/dev/null
echo "status $?"
ls -A kept | tr '\n' ' '; echo
kill "$live"
