package io.github.leanscrape.support;

/**
 * The JUnit tag of the tests that put the web layer under load or a fuzz of bad requests:
 * they run with every build's main cell, and the cells that test other versions of Spring
 * Boot, Micrometer and the JDK leave them out ({@code -DexcludedGroups=stress}) to keep
 * continuous integration short, since what they check is the starter's own admission and
 * input handling. (The storm on virtual threads, for the newer JDK, is not among them.)
 *
 * @author leanscrape
 */
public final class StressTests {

	/**
	 * The tag.
	 */
	public static final String TAG = "stress";

	private StressTests() {
	}

}
