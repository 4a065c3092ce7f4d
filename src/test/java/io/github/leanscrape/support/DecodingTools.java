package io.github.leanscrape.support;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Decodes compressed bodies with the command-line tools that users and scrapers' authors
 * trust, not with the libraries that encoded them: the {@code zstd} tool (the reference
 * implementation's own decoder), the {@code gzip} tool, and {@code curl --compressed}
 * (libcurl over zlib and libzstd). The tests that use them do not skip when one is
 * missing: they fail and say what to install.
 */
public final class DecodingTools {

	private DecodingTools() {
	}

	/**
	 * Decode a zstd stream with the {@code zstd} tool.
	 * @param compressed the stream
	 * @return the decoded bytes
	 */
	public static byte[] zstd(byte[] compressed) {
		return run(compressed, executable("zstd", "zstd").toString(), "-d", "-c", "-q");
	}

	/**
	 * Decode a gzip stream with the {@code gzip} tool.
	 * @param compressed the stream
	 * @return the decoded bytes
	 */
	public static byte[] gzip(byte[] compressed) {
		return run(compressed, executable("gzip", "gzip").toString(), "-d", "-c");
	}

	/**
	 * Fetch a URL with {@code curl --compressed} and return the body as curl decoded it.
	 * Without an {@code Accept-Encoding} among the headers, curl sends its own (every
	 * coding it can decode).
	 * @param url the URL
	 * @param headers further request headers, each {@code "Name: value"}
	 * @return the decoded body
	 */
	public static byte[] curlCompressed(String url, String... headers) {
		List<String> command = new ArrayList<>(List.of(executable("curl", "curl").toString(), "--silent",
				"--show-error", "--fail", "--compressed", "--output", "-"));
		for (String header : headers) {
			command.add("--header");
			command.add(header);
		}
		command.add(url);
		return run(new byte[0], command.toArray(new String[0]));
	}

	private static byte[] run(byte[] stdinBytes, String... command) {
		try {
			Process process = new ProcessBuilder(command).start();
			CompletableFuture<Void> input = CompletableFuture.runAsync(() -> {
				try (OutputStream stdin = process.getOutputStream()) {
					stdin.write(stdinBytes);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			CompletableFuture<byte[]> errors = CompletableFuture.supplyAsync(() -> {
				try (InputStream stderr = process.getErrorStream()) {
					return stderr.readAllBytes();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			byte[] output;
			try (InputStream stdout = process.getInputStream()) {
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				stdout.transferTo(out);
				output = out.toByteArray();
			}
			input.join();
			assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command[0]).isTrue();
			assertThat(process.exitValue())
				.as("%s's exit status: %s", command[0], new String(errors.join(), StandardCharsets.UTF_8))
				.isZero();
			return output;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static Path executable(String name, String debianPackage) {
		String path = System.getenv("PATH");
		if (path != null) {
			for (String directory : path.split(File.pathSeparator)) {
				Path candidate = Path.of(directory, name);
				if (!directory.isEmpty() && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return candidate;
				}
			}
		}
		return fail("'" + name + "' is not on the PATH. These tests decode compressed bodies with it; install it "
				+ "(Debian and Ubuntu: apt-get install " + debianPackage + "). .ci/run installs it.");
	}

}
