package io.github.leanscrape.prometheus;

import java.nio.charset.StandardCharsets;

/**
 * The samples of a text exposition, either format, counted and summed as a scraping
 * server's queries count and sum what it stored.
 *
 * @param text the exposition
 */
record Exposition(String text) {

	static Exposition of(byte[] body) {
		return new Exposition(new String(body, StandardCharsets.UTF_8));
	}

	/**
	 * Return how many samples have a name that starts with a prefix.
	 * @param prefix the prefix
	 * @return the number of samples
	 */
	double series(String prefix) {
		return this.text.lines().filter((line) -> line.startsWith(prefix)).count();
	}

	/**
	 * Return the sum of the samples whose name starts with a prefix and ends with a
	 * suffix.
	 * @param prefix the prefix
	 * @param suffix the suffix
	 * @return the sum
	 */
	double sum(String prefix, String suffix) {
		double sum = 0;
		for (String line : this.text.lines().toList()) {
			if (!line.startsWith(prefix)) {
				continue;
			}
			int end = line.indexOf('{');
			String name = line.substring(0, (end >= 0) ? end : line.indexOf(' '));
			if (name.endsWith(suffix)) {
				sum += StoredDemoValues.parseFloat(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return sum;
	}

}
