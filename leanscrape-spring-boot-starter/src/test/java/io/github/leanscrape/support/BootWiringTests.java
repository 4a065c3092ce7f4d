package io.github.leanscrape.support;

/**
 * The JUnit tag of the tests of how the starter is wired into a Spring Boot application:
 * the endpoint on a management server of its own, behind Spring Security, turned off,
 * after ahead-of-time processing. Their outcome rests on Spring Boot's version alone: the
 * cell of another Spring Boot runs them, the cells of another Micrometer and of the newer
 * JDK leave them out ({@code -DexcludedGroups=boot-wiring}) to keep continuous
 * integration short.
 *
 * @author leanscrape
 */
public final class BootWiringTests {

	/**
	 * The tag.
	 */
	public static final String TAG = "boot-wiring";

	private BootWiringTests() {
	}

}
