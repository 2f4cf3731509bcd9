using System;
using System.Linq;
using System.Diagnostics;
using System.Threading.Tasks;

namespace Warehouse.Api.Tests
{
    /// <summary>A test: a name and what it runs.</summary>
    public sealed class Test
    {
        public Test(string name, Func<Task> run)
        {
            Name = name;
            Run = run;
        }

        public string Name { get; }
        public Func<Task> Run { get; }
    }

    /// <summary>Thrown when a check fails.</summary>
    public sealed class AssertionException : Exception
    {
        public AssertionException(string message) : base(message) { }
    }

    /// <summary>The few checks the tests need (NUnit from Debian is 2.6, from 2013; no NuGet here).</summary>
    public static class Assert
    {
        public static void Equal<T>(T expected, T actual, string what = "value")
        {
            if (!Equals(expected, actual)) throw new AssertionException(what + ": expected <" + expected + "> but was <" + actual + ">");
        }

        public static void True(bool condition, string what)
        {
            if (!condition) throw new AssertionException(what);
        }

        public static async Task<T> ThrowsAsync<T>(Func<Task> call) where T : Exception
        {
            try
            {
                await call();
            }
            catch (T expected)
            {
                return expected;
            }
            throw new AssertionException("expected " + typeof(T).Name + ", but the call succeeded");
        }

        public static T Throws<T>(Action call) where T : Exception
        {
            try
            {
                call();
            }
            catch (T expected)
            {
                return expected;
            }
            throw new AssertionException("expected " + typeof(T).Name + ", but the call succeeded");
        }
    }

    /// <summary>Runs the tests in order, prints one line each, and exits 1 when any failed.</summary>
    public static class TestRunner
    {
        public static int Main()
        {
            var failed = 0;
            var all = Stopwatch.StartNew();
            // The scenario last: its last test waits out the Starter tenant's rate limit.
            var tests = TypesErrorsAndTimeTests.All.Concat(ScenarioTests.All).ToList();
            foreach (var test in tests)
            {
                var watch = Stopwatch.StartNew();
                try
                {
                    test.Run().GetAwaiter().GetResult();
                    Console.WriteLine("  pass  " + test.Name + " (" + watch.ElapsedMilliseconds + " ms)");
                }
                catch (Exception error)
                {
                    failed++;
                    Console.WriteLine("  FAIL  " + test.Name + "\n" + error);
                }
            }
            Console.WriteLine((tests.Count - failed) + " passed, " + failed + " failed (" + all.Elapsed.TotalSeconds.ToString("0.0") + " s)");
            return failed == 0 ? 0 : 1;
        }
    }
}
