package io.github.leanscrape.support;

/**
 * The JUnit tag of the tests whose outcome rests on the starter's own code and the JVM
 * alone, not on the versions of Spring Boot and Micrometer: what is kept between scrapes,
 * compression, the chunk pool, one scrape's admission and memory limit, memory under a
 * storm of scrapes, what the meter index retains and its scrapes while meters come and
 * go. They run in every build's main cell and on the newer JDK; the cells that test other
 * versions of Spring Boot and Micrometer leave them out
 * ({@code -DexcludedGroups=own-code}) to keep continuous integration short.
 *
 * @author leanscrape
 */
public final class OwnCodeTests {

	/**
	 * The tag.
	 */
	public static final String TAG = "own-code";

	private OwnCodeTests() {
	}

}
