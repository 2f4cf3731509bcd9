using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Warehouse.Api
{
    /// <summary>One page of a list: its items and position; <see cref="Data"/> is the whole response (reports add totals).</summary>
    public sealed class ResultPage
    {
        internal ResultPage(JsonObject data)
        {
            Data = data;
            Items = data.GetArray("items").Cast<JsonObject>().ToList();
            TotalCount = data.GetInt64("totalCount");
            Page = data.GetInt32("page");
            PageSize = data.GetInt32("pageSize");
            TotalPages = data.GetInt32("totalPages");
        }

        public IReadOnlyList<JsonObject> Items { get; }
        public long TotalCount { get; }
        public int Page { get; }
        public int PageSize { get; }
        public int TotalPages { get; }
        public JsonObject Data { get; }
    }

    /// <summary>
    /// Every item of a list, fetching page after page until <c>totalPages</c>. On .NET Core 3.0+ / netstandard2.1 it is
    /// an <c>IAsyncEnumerable&lt;JsonObject&gt;</c> (<c>await foreach</c>); everywhere it is a page loop:
    /// <c>while (await items.MoveNextAsync()) Use(items.Current);</c>.
    /// </summary>
    public sealed class PageIterator
#if NETSTANDARD2_1_OR_GREATER || NETCOREAPP3_0_OR_GREATER
        : IAsyncEnumerable<JsonObject>, IAsyncEnumerator<JsonObject>
#endif
    {
        private readonly Func<int, Task<ResultPage>> _fetchPage;
        private ResultPage _page;
        private int _index = -1;

        internal PageIterator(Func<int, Task<ResultPage>> fetchPage)
        {
            _fetchPage = fetchPage;
        }

        /// <summary>The item <see cref="MoveNextAsync"/> moved to.</summary>
        public JsonObject Current { get; private set; }

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
        public async Task<List<JsonObject>> ToListAsync()
        {
            var items = new List<JsonObject>();
            while (await MoveNextAsync().ConfigureAwait(false)) items.Add(Current);
            return items;
        }

#if NETSTANDARD2_1_OR_GREATER || NETCOREAPP3_0_OR_GREATER
        IAsyncEnumerator<JsonObject> IAsyncEnumerable<JsonObject>.GetAsyncEnumerator(CancellationToken cancellationToken)
        {
            return new PageIterator(_fetchPage);
        }

        ValueTask<bool> IAsyncEnumerator<JsonObject>.MoveNextAsync()
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
