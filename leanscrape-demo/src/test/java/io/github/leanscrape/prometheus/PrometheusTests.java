package io.github.leanscrape.prometheus;

/**
 * The JUnit tag of the tests that run the real Prometheus server or {@code promtool}.
 * Leave them out with {@code -DexcludedGroups=prometheus}.
 *
 * @author leanscrape
 */
final class PrometheusTests {

	/**
	 * The tag.
	 */
	static final String TAG = "prometheus";

	private PrometheusTests() {
	}

}
