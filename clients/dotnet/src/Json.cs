using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Reflection;
using System.Text;

namespace Warehouse.Api
{
    /// <summary>
    /// A JSON object as the API sends it: field names as written (camelCase), values are <see cref="JsonObject"/>,
    /// <c>List&lt;object&gt;</c>, <c>string</c>, <c>long</c>, <c>decimal</c>, <c>double</c>, <c>bool</c> or <c>null</c>.
    /// </summary>
    public sealed class JsonObject : Dictionary<string, object>
    {
        public JsonObject() : base(StringComparer.Ordinal) { }

        public string GetString(string name) { return (string)this[name]; }
        public long GetInt64(string name) { return Convert.ToInt64(this[name], CultureInfo.InvariantCulture); }
        public int GetInt32(string name) { return Convert.ToInt32(this[name], CultureInfo.InvariantCulture); }
        public decimal GetDecimal(string name) { return Convert.ToDecimal(this[name], CultureInfo.InvariantCulture); }
        public bool GetBoolean(string name) { return (bool)this[name]; }
        public JsonObject GetObject(string name) { return (JsonObject)this[name]; }
        public IList<object> GetArray(string name) { return (IList<object>)this[name]; }

        public override string ToString() { return Json.Serialize(this); }
    }

    /// <summary>
    /// A small JSON reader and writer. System.Text.Json is not part of Mono (the only .NET here) nor of
    /// netstandard2.0 without a NuGet package, DataContractJsonSerializer needs a fixed contract per type, and the
    /// client must not pull dependencies; the API's JSON (objects, arrays, strings, numbers, booleans) needs no more.
    /// </summary>
    public static class Json
    {
        /// <summary>Parses JSON text into <see cref="JsonObject"/>, lists, strings, numbers, booleans and nulls.</summary>
        public static object Parse(string text)
        {
            var reader = new Reader(text);
            var value = reader.ReadValue();
            reader.SkipWhitespace();
            if (!reader.AtEnd) throw reader.Error("unexpected text after the JSON value");
            return value;
        }

        /// <summary>
        /// Writes a value as JSON: dictionaries, lists and arrays, strings, numbers, booleans, null, <c>DateTime</c>
        /// and <c>DateTimeOffset</c> (ISO 8601), <c>Guid</c>, enums (by name), and any other object by its public
        /// properties (an anonymous object <c>new { sku = "WID-001" }</c> writes <c>{"sku":"WID-001"}</c>).
        /// </summary>
        public static string Serialize(object value)
        {
            var builder = new StringBuilder();
            Write(builder, value);
            return builder.ToString();
        }

        private static void Write(StringBuilder b, object value)
        {
            if (value == null) { b.Append("null"); return; }
            if (value is string s) { WriteString(b, s); return; }
            if (value is bool flag) { b.Append(flag ? "true" : "false"); return; }
            if (value is IJsonModel model) { Write(b, model.ToJson()); return; }
            if (value is Enum) { WriteString(b, ModelJson.WireName((Enum)value)); return; }
            if (value is DateTime time) { WriteString(b, time.ToString("o", CultureInfo.InvariantCulture)); return; }
            if (value is DateTimeOffset offset) { WriteString(b, offset.ToString("o", CultureInfo.InvariantCulture)); return; }
            if (value is Guid guid) { WriteString(b, guid.ToString()); return; }
            if (value is double d) { b.Append(d.ToString("R", CultureInfo.InvariantCulture)); return; }
            if (value is float f) { b.Append(f.ToString("R", CultureInfo.InvariantCulture)); return; }
            if (value is IFormattable number && IsNumber(value)) { b.Append(number.ToString(null, CultureInfo.InvariantCulture)); return; }
            if (value is IDictionary dictionary)
            {
                b.Append('{');
                var first = true;
                foreach (DictionaryEntry entry in dictionary)
                {
                    if (!first) b.Append(',');
                    first = false;
                    WriteString(b, Convert.ToString(entry.Key, CultureInfo.InvariantCulture));
                    b.Append(':');
                    Write(b, entry.Value);
                }
                b.Append('}');
                return;
            }
            if (value is IEnumerable items)
            {
                b.Append('[');
                var first = true;
                foreach (var item in items)
                {
                    if (!first) b.Append(',');
                    first = false;
                    Write(b, item);
                }
                b.Append(']');
                return;
            }
            b.Append('{');
            var firstProperty = true;
            foreach (var property in value.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
            {
                if (property.GetIndexParameters().Length > 0) continue;
                if (!firstProperty) b.Append(',');
                firstProperty = false;
                WriteString(b, property.Name);
                b.Append(':');
                Write(b, property.GetValue(value, null));
            }
            b.Append('}');
        }

        private static bool IsNumber(object value)
        {
            return value is int || value is long || value is decimal || value is short || value is byte
                || value is uint || value is ulong || value is ushort || value is sbyte;
        }

        private static void WriteString(StringBuilder b, string s)
        {
            b.Append('"');
            foreach (var c in s)
            {
                switch (c)
                {
                    case '"': b.Append("\\\""); break;
                    case '\\': b.Append("\\\\"); break;
                    case '\n': b.Append("\\n"); break;
                    case '\r': b.Append("\\r"); break;
                    case '\t': b.Append("\\t"); break;
                    default:
                        if (c < ' ') b.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else b.Append(c);
                        break;
                }
            }
            b.Append('"');
        }

        private sealed class Reader
        {
            private readonly string _text;
            private int _at;

            public Reader(string text) { _text = text ?? throw new ArgumentNullException(nameof(text)); }

            public bool AtEnd { get { return _at >= _text.Length; } }

            public FormatException Error(string what)
            {
                return new FormatException("Invalid JSON at position " + _at + ": " + what);
            }

            public void SkipWhitespace()
            {
                while (!AtEnd && char.IsWhiteSpace(_text[_at])) _at++;
            }

            private char Next()
            {
                if (AtEnd) throw Error("unexpected end");
                return _text[_at++];
            }

            private void Expect(string word)
            {
                if (string.CompareOrdinal(_text, _at, word, 0, word.Length) != 0) throw Error("expected " + word);
                _at += word.Length;
            }

            public object ReadValue()
            {
                SkipWhitespace();
                if (AtEnd) throw Error("unexpected end");
                var c = _text[_at];
                switch (c)
                {
                    case '{': return ReadObject();
                    case '[': return ReadArray();
                    case '"': return ReadString();
                    case 't': Expect("true"); return true;
                    case 'f': Expect("false"); return false;
                    case 'n': Expect("null"); return null;
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
                        throw Error("unexpected '" + c + "'");
                }
            }

            private JsonObject ReadObject()
            {
                var result = new JsonObject();
                _at++;
                SkipWhitespace();
                if (!AtEnd && _text[_at] == '}') { _at++; return result; }
                while (true)
                {
                    SkipWhitespace();
                    if (AtEnd || _text[_at] != '"') throw Error("expected a field name");
                    var name = ReadString();
                    SkipWhitespace();
                    if (Next() != ':') throw Error("expected ':'");
                    result[name] = ReadValue();
                    SkipWhitespace();
                    var c = Next();
                    if (c == '}') return result;
                    if (c != ',') throw Error("expected ',' or '}'");
                }
            }

            private List<object> ReadArray()
            {
                var result = new List<object>();
                _at++;
                SkipWhitespace();
                if (!AtEnd && _text[_at] == ']') { _at++; return result; }
                while (true)
                {
                    result.Add(ReadValue());
                    SkipWhitespace();
                    var c = Next();
                    if (c == ']') return result;
                    if (c != ',') throw Error("expected ',' or ']'");
                }
            }

            private string ReadString()
            {
                _at++;
                var b = new StringBuilder();
                while (true)
                {
                    var c = Next();
                    if (c == '"') return b.ToString();
                    if (c != '\\') { b.Append(c); continue; }
                    var e = Next();
                    switch (e)
                    {
                        case '"': b.Append('"'); break;
                        case '\\': b.Append('\\'); break;
                        case '/': b.Append('/'); break;
                        case 'b': b.Append('\b'); break;
                        case 'f': b.Append('\f'); break;
                        case 'n': b.Append('\n'); break;
                        case 'r': b.Append('\r'); break;
                        case 't': b.Append('\t'); break;
                        case 'u':
                            if (_at + 4 > _text.Length) throw Error("short \\u escape");
                            b.Append((char)int.Parse(_text.Substring(_at, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                            _at += 4;
                            break;
                        default: throw Error("bad escape \\" + e);
                    }
                }
            }

            private object ReadNumber()
            {
                var start = _at;
                while (!AtEnd && "+-0123456789.eE".IndexOf(_text[_at]) >= 0) _at++;
                var token = _text.Substring(start, _at - start);
                long integer;
                if (long.TryParse(token, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out integer)) return integer;
                decimal exact;
                if (token.IndexOfAny(new[] { 'e', 'E' }) < 0
                    && decimal.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out exact)) return exact;
                double approximate;
                if (double.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out approximate)) return approximate;
                throw Error("bad number " + token);
            }
        }
    }
}
