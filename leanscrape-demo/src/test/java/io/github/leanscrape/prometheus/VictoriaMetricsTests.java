package io.github.leanscrape.prometheus;

/**
 * The JUnit tag of the tests that run the real VictoriaMetrics server. Leave them out
 * with {@code -DexcludedGroups=victoriametrics}.
 *
 * @author leanscrape
 */
final class VictoriaMetricsTests {

	/**
	 * The tag.
	 */
	static final String TAG = "victoriametrics";

	private VictoriaMetricsTests() {
	}

}
