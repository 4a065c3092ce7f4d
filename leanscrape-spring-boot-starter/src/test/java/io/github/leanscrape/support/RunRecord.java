package io.github.leanscrape.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;

/**
 * What a raw result records about the run that made it: the date, the commit, the JDK,
 * the machine and the exact command. The jmh profile records every JMH result file in the
 * index of runs beside it ({@code target/jmh-result.json}: a block of
 * {@code target/runs.txt}), from the arguments JMH ran with; the tail-latency experiment
 * writes the same keys at the top of its raw file.
 * <p>
 * The index ({@value #INDEX}) holds one block per result file in its folder: a
 * {@code file: NAME} line, then the record's {@code key: value} lines; a blank line
 * between blocks.
 *
 * @author leanscrape
 */
public final class RunRecord {

	/**
	 * The name of the index of runs, beside the result files it records.
	 */
	public static final String INDEX = "runs.txt";

	private static final String FILE = "file";

	private RunRecord() {
	}

	/**
	 * Record a JMH run in the index beside its result file.
	 * @param args the arguments JMH ran with ({@code -Djmh.args})
	 * @throws IOException if the record cannot be written
	 */
	public static void main(String[] args) throws IOException {
		String results = "jmh-result.json";
		for (int i = 0; i < args.length - 1; i++) {
			if (args[i].equals("-rff")) {
				results = args[i + 1];
			}
		}
		String profiles = System.getProperty("leanscrape.run.profiles", "jmh");
		String command = "./mvnw -P" + profiles + " -DskipTests -Djmh.gate.skip=true verify \"-Djmh.args="
				+ String.join(" ", args) + "\"";
		Path json = Path.of(results);
		System.out.println("Wrote " + write(json, describe(command)));
	}

	/**
	 * Write the record of the run that made a result file into the index beside it, in
	 * place of any earlier record of the same file.
	 * @param results the result file
	 * @param run its record, in the order of its lines
	 * @return the index
	 * @throws IOException if the index cannot be read or written
	 */
	public static Path write(Path results, Map<String, String> run) throws IOException {
		Path index = results.toAbsolutePath().resolveSibling(INDEX);
		Map<String, Map<String, String>> runs = Files.exists(index) ? read(index) : new LinkedHashMap<>();
		runs.put(results.getFileName().toString(), run);
		StringBuilder out = new StringBuilder();
		for (Map.Entry<String, Map<String, String>> record : runs.entrySet()) {
			if (!out.isEmpty()) {
				out.append('\n');
			}
			out.append(FILE).append(": ").append(record.getKey()).append('\n');
			for (Map.Entry<String, String> entry : record.getValue().entrySet()) {
				out.append(entry.getKey()).append(": ").append(entry.getValue()).append('\n');
			}
		}
		Files.writeString(index, out, StandardCharsets.UTF_8);
		return index;
	}

	/**
	 * Read an index of runs.
	 * @param index the index
	 * @return each result file's name and its record, in the order of the index
	 * @throws IOException if the index cannot be read
	 */
	public static Map<String, Map<String, String>> read(Path index) throws IOException {
		Map<String, Map<String, String>> runs = new LinkedHashMap<>();
		@Nullable Map<String, String> run = null;
		List<String> lines = Files.readAllLines(index, StandardCharsets.UTF_8);
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			int colon = line.indexOf(": ");
			if (line.isBlank()) {
				run = null;
			}
			else if (colon < 0) {
				throw new IllegalStateException(index + ":" + (i + 1) + " is not a key: value line");
			}
			else if (run == null) {
				if (!line.substring(0, colon).equals(FILE)) {
					throw new IllegalStateException(index + ":" + (i + 1) + " does not start a record with file:");
				}
				run = new LinkedHashMap<>();
				if (runs.put(line.substring(colon + 2), run) != null) {
					throw new IllegalStateException(index + " records " + line.substring(colon + 2) + " twice");
				}
			}
			else {
				run.put(line.substring(0, colon), line.substring(colon + 2));
			}
		}
		return runs;
	}

	/**
	 * Describe the run under way.
	 * @param command the command that runs it
	 * @return date (when it is described: for a JMH run, when it ended), commit, JDK,
	 * machine, the versions of Spring Boot, Micrometer and client_java, and command, in
	 * that order
	 */
	public static Map<String, String> describe(String command) {
		Map<String, String> run = new LinkedHashMap<>();
		run.put("date",
				ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")) + " UTC");
		run.put("commit", commit());
		run.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		run.put("machine", machine());
		run.put("versions", versions());
		run.put("command", command);
		return run;
	}

	/**
	 * Read the record of a run from the comment lines ({@code # key: value}) a raw output
	 * starts with.
	 * @param raw the raw output
	 * @return the record, in the order of its lines
	 */
	public static Map<String, String> comments(String raw) {
		Map<String, String> run = new LinkedHashMap<>();
		for (String line : raw.replace("\r\n", "\n").split("\n")) {
			int colon = line.indexOf(": ");
			if (!line.startsWith("# ") || colon < 0) {
				break;
			}
			run.put(line.substring(2, colon), line.substring(colon + 2));
		}
		return run;
	}

	private static String versions() {
		return "Spring Boot " + SpringBootVersion.getVersion() + ", Micrometer "
				+ MeterRegistry.class.getPackage().getImplementationVersion() + ", client_java " + clientJavaVersion();
	}

	private static @Nullable String clientJavaVersion() {
		// client_java's jars name no version in their manifests; their Maven metadata
		// does.
		try (InputStream in = PrometheusRegistry.class
			.getResourceAsStream("/META-INF/maven/io.prometheus/prometheus-metrics-model/pom.properties")) {
			if (in == null) {
				return null;
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version");
		}
		catch (IOException ex) {
			return null;
		}
	}

	private static String commit() {
		try {
			Process git = new ProcessBuilder("git", "describe", "--always", "--abbrev=7", "--dirty=+uncommitted")
				.redirectErrorStream(true)
				.start();
			String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			return (git.waitFor() == 0) ? out : "unknown";
		}
		catch (IOException ex) {
			return "unknown";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "unknown";
		}
	}

	private static String machine() {
		String cpu = null;
		try {
			for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
				if (line.startsWith("model name")) {
					cpu = line.substring(line.indexOf(':') + 1).trim();
					break;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux: the processor count alone.
		}
		return String.format(Locale.ROOT, "%s %s, %d processors%s", System.getProperty("os.name"),
				System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
				(cpu != null) ? " (" + cpu + ")" : "");
	}

}
