package io.github.leanscrape.prometheus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.fail;

/**
 * Runs {@code promtool check metrics}, Prometheus's linter for the text format.
 *
 * @author leanscrape
 */
final class Promtool {

	private Promtool() {
	}

	/**
	 * Lint a text-format body.
	 * @param body the body
	 * @param directory a directory for the input and output files
	 * @param name a name for those files
	 * @return what promtool said
	 * @throws IOException if the files cannot be written or the process not started
	 * @throws InterruptedException if interrupted while waiting for promtool
	 */
	static Result checkMetrics(byte[] body, Path directory, String name) throws IOException, InterruptedException {
		Path executable = Executables.require("promtool");
		Path input = Files.write(directory.resolve(name + ".txt"), body);
		Path output = directory.resolve(name + ".promtool");
		// Files on both ends: nothing can block on a full pipe.
		Process process = new ProcessBuilder(executable.toString(), "check", "metrics").redirectErrorStream(true)
			.redirectInput(input.toFile())
			.redirectOutput(output.toFile())
			.start();
		try {
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				return fail("promtool check metrics did not finish in 60 s");
			}
		}
		finally {
			process.destroyForcibly();
			process.waitFor(10, TimeUnit.SECONDS);
		}
		return new Result(process.exitValue(), Files.readAllLines(output));
	}

	/**
	 * What {@code promtool check metrics} said.
	 *
	 * @param exitCode 0 when clean, 3 for lint problems, 1 when the text cannot be parsed
	 * @param lines the problems it reported, one a line
	 */
	record Result(int exitCode, List<String> lines) {

		static final int CLEAN = 0;

		static final int PARSE_ERROR = 1;

		static final int LINT_PROBLEMS = 3;

	}

}
