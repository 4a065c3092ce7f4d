package io.github.leanscrape.serve;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Reads an {@code Accept-Encoding} header: does the client take gzip?
 *
 * @author leanscrape
 */
final class AcceptEncoding {

	/**
	 * The gzip content coding.
	 */
	static final String GZIP = "gzip";

	private AcceptEncoding() {
	}

	/**
	 * Return whether the header values accept gzip with a q-value above zero, named or
	 * through {@code *}.
	 * @param headerValues the values of {@code Accept-Encoding}, or {@code null}
	 * @return {@code true} when a gzip body may be sent
	 */
	static boolean acceptsGzip(@Nullable List<String> headerValues) {
		if (headerValues == null) {
			return false;
		}
		double gzip = -1;
		double wildcard = -1;
		for (String header : headerValues) {
			int start = 0;
			int length = header.length();
			while (start < length) {
				int end = header.indexOf(',', start);
				if (end < 0) {
					end = length;
				}
				String coding = header.substring(start, end).trim();
				start = end + 1;
				int semicolon = coding.indexOf(';');
				String name = ((semicolon < 0) ? coding : coding.substring(0, semicolon)).trim();
				double q = (semicolon < 0) ? 1.0 : quality(coding.substring(semicolon + 1));
				if (name.equalsIgnoreCase(GZIP) || name.equalsIgnoreCase("x-gzip")) {
					gzip = Math.max(gzip, q);
				}
				else if (name.equals("*")) {
					wildcard = Math.max(wildcard, q);
				}
			}
		}
		return (gzip >= 0) ? gzip > 0 : wildcard > 0;
	}

	private static double quality(String parameters) {
		for (String parameter : parameters.split(";")) {
			String trimmed = parameter.trim();
			if (trimmed.length() > 2 && (trimmed.charAt(0) == 'q' || trimmed.charAt(0) == 'Q')
					&& trimmed.charAt(1) == '=') {
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
