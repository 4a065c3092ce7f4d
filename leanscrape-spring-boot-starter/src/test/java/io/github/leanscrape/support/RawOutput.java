package io.github.leanscrape.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * What a test measures and prints, kept as a raw result: printed as it goes, and written
 * to {@code target/raw/<name>.txt} under the record of the run (date, commit, JDK,
 * machine, command), where a copy can be committed to {@code docs/load} for the figures
 * published from it.
 *
 * @author leanscrape
 */
public final class RawOutput {

	private final StringBuilder text = new StringBuilder();

	/**
	 * Print a line, and keep it.
	 * @param format the format
	 * @param args its arguments
	 * @return this output
	 */
	public RawOutput printf(String format, Object... args) {
		String line = String.format(Locale.ROOT, format, args);
		System.out.print(line);
		this.text.append(line);
		return this;
	}

	/**
	 * Write what was printed to {@code target/raw/<name>.txt}.
	 * @param name the file's name, without its extension
	 * @param command the command that runs the test
	 * @throws IOException if the file cannot be written
	 */
	public void write(String name, String command) throws IOException {
		StringBuilder out = new StringBuilder();
		for (Map.Entry<String, String> entry : RunRecord.describe(command).entrySet()) {
			out.append("# ").append(entry.getKey()).append(": ").append(entry.getValue()).append('\n');
		}
		out.append(this.text);
		Path file = Path.of("target", "raw", name + ".txt");
		Files.createDirectories(file.getParent());
		Files.writeString(file, out, StandardCharsets.UTF_8);
	}

}
