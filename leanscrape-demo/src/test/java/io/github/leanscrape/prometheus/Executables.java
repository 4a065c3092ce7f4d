package io.github.leanscrape.prometheus;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.fail;

/**
 * Finds the executables of the scraping servers on the {@code PATH}. These tests do not
 * skip when one is missing: they fail and say what to install.
 *
 * @author leanscrape
 */
final class Executables {

	private Executables() {
	}

	/**
	 * Return the executable of that name on the {@code PATH}, or fail the test.
	 * @param name {@code prometheus}, {@code promtool} or {@code victoria-metrics}
	 * @return the executable
	 */
	static Path require(String name) {
		String path = System.getenv("PATH");
		if (path != null) {
			for (String directory : path.split(File.pathSeparator)) {
				if (directory.isEmpty()) {
					continue;
				}
				Path candidate = Path.of(directory, name);
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return candidate;
				}
			}
		}
		String installs = name.equals("victoria-metrics") ? "apt-get install victoria-metrics"
				: "apt-get install prometheus, which provides prometheus and promtool";
		return fail("'" + name + "' is not on the PATH. These tests run the real scraping servers; install them "
				+ "(Debian and Ubuntu: " + installs + "). .ci/run installs them.");
	}

}
