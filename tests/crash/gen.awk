# gen.awk: N deterministic documents (awk -v n=N -v seed=S -v tag=T [-v vocab=V])
BEGIN {
	split("wing lift drag flow boundary layer pressure shock wave supersonic heat transfer " \
	    "turbulence laminar airfoil nozzle jet stream vortex panel method buckling shell " \
	    "plate cylinder stress load vibration flutter skin friction mach number reynolds " \
	    "separation transition hypersonic blunt body cone delta swept aspect ratio", w, " ");
	nw = 0; for (k in w) nw++;
	if (vocab + 0 > 0) {	# -v vocab=N: N synthetic words instead
		nw = vocab + 0;
		for (i = 1; i <= nw; i++) w[i] = sprintf("t%dx", i);
	}
	s = seed + 0;
	for (d = 1; d <= n; d++) {
		text = "";
		for (i = 0; i < 40; i++) {
			s = (s * 1103515245 + 12345) % 2147483648;
			text = text w[1 + int(s / 65536) % nw] (i == 39 ? "." : " ");
		}
		printf "{\"id\":\"%s%06d\",\"title\":\"Report %d\",\"text\":\"%s\"}\n", tag, d, d, text;
	}
}
