package io.github.leanscrape.docs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.github.leanscrape.support.RunRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A committed JMH result file ({@code -rf json}) and the record of its run in the index
 * beside it ({@code runs.txt}: date, commit, JDK, machine, command): each result's forks,
 * so that published times are medians of the forks' means with their range.
 *
 * @author leanscrape
 */
final class JmhResults {

	private final Path file;

	private final List<JsonNode> results;

	private final Map<String, String> run;

	private JmhResults(Path file, List<JsonNode> results, Map<String, String> run) {
		this.file = file;
		this.results = results;
		this.run = run;
	}

	static JmhResults read(Path file) throws IOException {
		List<JsonNode> results = new ArrayList<>();
		for (JsonNode result : new JsonMapper().readTree(file.toFile())) {
			results.add(result);
		}
		return new JmhResults(file, results, readRun(file));
	}

	/**
	 * Read the record of the run that made a result file, from the index of runs beside
	 * it ({@code runs.txt}: {@code key: value} lines under the file's name).
	 * @param results the result file
	 * @return its record: date, commit, JDK, machine, command and any other lines
	 * @throws IOException if the index cannot be read
	 */
	static Map<String, String> readRun(Path results) throws IOException {
		Path index = results.resolveSibling(RunRecord.INDEX);
		Map<String, String> run = RunRecord.read(index).get(results.getFileName().toString());
		if (run == null) {
			throw new IllegalStateException(index + " does not record " + results.getFileName());
		}
		for (String key : List.of("date", "commit", "jdk", "machine", "command")) {
			if (!run.containsKey(key)) {
				throw new IllegalStateException(index + " does not record the " + key + " of " + results.getFileName());
			}
		}
		return run;
	}

	Path file() {
		return this.file;
	}

	Map<String, String> run() {
		return this.run;
	}

	/**
	 * Return how many forks each result has: the fewest, if they differ.
	 * @return the fewest forks of any result
	 */
	int forkCount() {
		int forks = Integer.MAX_VALUE;
		for (JsonNode result : this.results) {
			forks = Math.min(forks, result.get("primaryMetric").get("rawData").size());
		}
		return forks;
	}

	/**
	 * Return the most forks of any result: more than {@link #forkCount()} where a file
	 * holds the results of two runs.
	 * @return the most forks
	 */
	int maxForkCount() {
		int forks = 0;
		for (JsonNode result : this.results) {
			forks = Math.max(forks, result.get("primaryMetric").get("rawData").size());
		}
		return forks;
	}

	/**
	 * Return the values a parameter takes in the results of a benchmark method, in the
	 * order of the run.
	 * @param benchmark the method's name
	 * @param param the parameter
	 * @return its values, each once
	 */
	List<String> paramValues(String benchmark, String param) {
		List<String> values = new ArrayList<>();
		for (JsonNode result : this.results) {
			JsonNode value = result.get("params").get(param);
			if (result.get("benchmark").asString().endsWith("." + benchmark) && value != null
					&& !values.contains(value.asString())) {
				values.add(value.asString());
			}
		}
		return values;
	}

	/**
	 * Return the forks of the result of a benchmark method with the given parameters.
	 * @param benchmark the method's name
	 * @param params parameters the result must have
	 * @return its forks
	 */
	Forks find(String benchmark, Map<String, String> params) {
		Forks forks = findOrNull(benchmark, params);
		if (forks == null) {
			throw new IllegalStateException("No result for " + benchmark + " " + params + " in " + this.file);
		}
		return forks;
	}

	/**
	 * Return the score of a secondary metric of the result of a benchmark method with the
	 * given parameters: for a counter of events ({@code @AuxCounters}), its mean over the
	 * iterations.
	 * @param benchmark the method's name
	 * @param params parameters the result must have
	 * @param metric the secondary metric's name
	 * @return its score
	 */
	double secondaryScore(String benchmark, Map<String, String> params, String metric) {
		for (JsonNode result : this.results) {
			if (result.get("benchmark").asString().endsWith("." + benchmark) && matches(result, params)) {
				JsonNode score = result.get("secondaryMetrics").get(metric);
				if (score == null) {
					throw new IllegalStateException("No " + metric + " for " + benchmark + " " + params);
				}
				return score.get("score").asDouble();
			}
		}
		throw new IllegalStateException("No result for " + benchmark + " " + params + " in " + this.file);
	}

	private static boolean matches(JsonNode result, Map<String, String> params) {
		boolean matches = true;
		for (Map.Entry<String, String> param : params.entrySet()) {
			JsonNode value = result.get("params").get(param.getKey());
			matches &= value != null && value.asString().equals(param.getValue());
		}
		return matches;
	}

	@Nullable Forks findOrNull(String benchmark, Map<String, String> params) {
		for (JsonNode result : this.results) {
			if (!result.get("benchmark").asString().endsWith("." + benchmark)) {
				continue;
			}
			if (matches(result, params)) {
				JsonNode bytes = result.get("secondaryMetrics").get("gc.alloc.rate.norm");
				return new Forks(iterations(result.get("primaryMetric").get("rawData")),
						(bytes != null) ? iterations(bytes.get("rawData")) : List.of());
			}
		}
		return null;
	}

	private static List<List<Double>> iterations(JsonNode rawData) {
		List<List<Double>> forks = new ArrayList<>();
		for (JsonNode fork : rawData) {
			List<Double> iterations = new ArrayList<>();
			for (JsonNode iteration : fork) {
				iterations.add(iteration.asDouble());
			}
			forks.add(iterations);
		}
		return forks;
	}

	static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int n = sorted.size();
		return (n % 2 == 1) ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
	}

	/**
	 * The forks of one result: each fork's measured iterations, of time and of bytes.
	 *
	 * @param timeIterations each fork's measured iterations of time
	 * @param bytesIterations each fork's measured iterations of bytes per operation
	 * ({@code gc.alloc.rate.norm}), none without {@code -prof gc}
	 */
	record Forks(List<List<Double>> timeIterations, List<List<Double>> bytesIterations) {

		List<Double> times() {
			return means(this.timeIterations);
		}

		List<Double> bytes() {
			return means(this.bytesIterations);
		}

		double medianTime() {
			return median(times());
		}

		double fastestFork() {
			return Collections.min(times());
		}

		double slowestFork() {
			return Collections.max(times());
		}

		double medianBytes() {
			return median(bytes());
		}

		double fastestIteration() {
			double min = Double.MAX_VALUE;
			for (List<Double> fork : this.timeIterations) {
				min = Math.min(min, Collections.min(fork));
			}
			return min;
		}

		double slowestIteration() {
			double max = 0;
			for (List<Double> fork : this.timeIterations) {
				max = Math.max(max, Collections.max(fork));
			}
			return max;
		}

		int forks() {
			return this.timeIterations.size();
		}

		private static List<Double> means(List<List<Double>> forks) {
			List<Double> means = new ArrayList<>();
			for (List<Double> fork : forks) {
				double sum = 0;
				for (double value : fork) {
					sum += value;
				}
				means.add(sum / fork.size());
			}
			return means;
		}

	}

}
