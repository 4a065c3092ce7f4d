package io.github.leanscrape.web;

import java.util.List;
import java.util.Set;

import io.github.leanscrape.exposition.ContentCoding;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the content coding of a response from its {@code Accept-Encoding} header.
 *
 * @author leanscrape
 */
public final class AcceptEncoding {

	private AcceptEncoding() {
	}

	/**
	 * Choose the available coding with the highest q-value above zero.
	 * @param headerValues the values of {@code Accept-Encoding}, or {@code null}
	 * @param available the codings the starter can send
	 * @return the coding, or {@code null} when the body goes uncompressed
	 */
	public static @Nullable ContentCoding choose(@Nullable List<String> headerValues, Set<ContentCoding> available) {
		if (headerValues == null || available.isEmpty()) {
			return null;
		}
		double gzip = -1;
		double zstd = -1;
		double wildcard = -1;
		for (String header : headerValues) {
			for (String coding : header.split(",")) {
				int semicolon = coding.indexOf(';');
				String name = ((semicolon < 0) ? coding : coding.substring(0, semicolon)).trim();
				double q = (semicolon < 0) ? 1.0 : quality(coding.substring(semicolon + 1));
				if (name.equalsIgnoreCase("gzip") || name.equalsIgnoreCase("x-gzip")) {
					gzip = Math.max(gzip, q);
				}
				else if (name.equalsIgnoreCase("zstd")) {
					zstd = Math.max(zstd, q);
				}
				else if (name.equals("*")) {
					wildcard = Math.max(wildcard, q);
				}
			}
		}
		// "*" accepts gzip but not zstd, so a client sending "*" gets what it got before
		// zstd; zstd wins a tie (a fraction of the CPU, a body no larger).
		double gzipQuality = available.contains(ContentCoding.GZIP) ? ((gzip >= 0) ? gzip : wildcard) : 0;
		double zstdQuality = available.contains(ContentCoding.ZSTD) ? zstd : 0;
		if (zstdQuality > 0 && zstdQuality >= gzipQuality) {
			return ContentCoding.ZSTD;
		}
		return (gzipQuality > 0) ? ContentCoding.GZIP : null;
	}

	private static double quality(String parameters) {
		for (String parameter : parameters.split(";")) {
			String trimmed = parameter.trim();
			if (trimmed.length() > 2 && trimmed.regionMatches(true, 0, "q=", 0, 2)) {
				try {
					double q = Double.parseDouble(trimmed.substring(2).trim());
					return (q >= 0 && q <= 1) ? q : 0;
				}
				catch (NumberFormatException ex) {
					return 0;
				}
			}
		}
		return 1.0;
	}

}
