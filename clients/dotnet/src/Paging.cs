using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Warehouse.Api
{
    /// <summary>One page of a list: its items (typed models) and position; <see cref="Data"/> is the whole response as JSON (reports add totals).</summary>
    public sealed class ResultPage<T>
    {
        internal ResultPage(JsonObject data, Func<object, T> item)
        {
            Data = data;
            Items = data.GetArray("items").Select(item).ToList();
            TotalCount = data.GetInt64("totalCount");
            Page = data.GetInt32("page");
            PageSize = data.GetInt32("pageSize");
            TotalPages = data.GetInt32("totalPages");
        }

        public IReadOnlyList<T> Items { get; }
        public long TotalCount { get; }
        public int Page { get; }
        public int PageSize { get; }
        public int TotalPages { get; }
        public JsonObject Data { get; }
    }

    /// <summary>
    /// Every item of a list, fetching page after page until <c>totalPages</c>. On .NET Core 3.0+ / netstandard2.1 it is
    /// an <c>IAsyncEnumerable&lt;T&gt;</c> (<c>await foreach</c>); everywhere it is a page loop:
    /// <c>while (await items.MoveNextAsync()) Use(items.Current);</c>.
    /// </summary>
    public sealed class PageIterator<T>
#if NETSTANDARD2_1_OR_GREATER || NETCOREAPP3_0_OR_GREATER
        : IAsyncEnumerable<T>, IAsyncEnumerator<T>
#endif
    {
        private readonly Func<int, Task<ResultPage<T>>> _fetchPage;
        private ResultPage<T> _page;
        private int _index = -1;

        internal PageIterator(Func<int, Task<ResultPage<T>>> fetchPage)
        {
            _fetchPage = fetchPage;
        }

        /// <summary>The item <see cref="MoveNextAsync"/> moved to.</summary>
        public T Current { get; private set; }

        /// <summary>Moves to the next item, fetching the next page when this one is used up; false after the last.</summary>
        public async Task<bool> MoveNextAsync()
        {
            while (_page == null || _index + 1 >= _page.Items.Count)
            {
                if (_page != null && _page.Page >= _page.TotalPages) return false;
                _page = await _fetchPage(_page == null ? 1 : _page.Page + 1).ConfigureAwait(false);
                _index = -1;
                if (_page.Items.Count == 0 && _page.Page >= _page.TotalPages) return false;
            }
            Current = _page.Items[++_index];
            return true;
        }

        /// <summary>Every item, in one list.</summary>
        public async Task<List<T>> ToListAsync()
        {
            var items = new List<T>();
            while (await MoveNextAsync().ConfigureAwait(false)) items.Add(Current);
            return items;
        }

#if NETSTANDARD2_1_OR_GREATER || NETCOREAPP3_0_OR_GREATER
        IAsyncEnumerator<T> IAsyncEnumerable<T>.GetAsyncEnumerator(CancellationToken cancellationToken)
        {
            return new PageIterator<T>(_fetchPage);
        }

        ValueTask<bool> IAsyncEnumerator<T>.MoveNextAsync()
        {
            return new ValueTask<bool>(MoveNextAsync());
        }

        ValueTask IAsyncDisposable.DisposeAsync()
        {
            return default(ValueTask);
        }
#endif
    }
}
